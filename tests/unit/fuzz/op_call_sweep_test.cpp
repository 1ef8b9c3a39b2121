// A bounded run of the program fuzzer's generator (support/op_call_fuzz.h),
// natively and in wasm: thousands of deterministic chains of operator calls
// with extreme but schema-valid arguments. Every call must return or be
// refused with an error that blames the input. (tests/fuzz/fuzz_op_calls.cpp
// runs the same generator under libFuzzer, ASan and UBSan.)
#include <catch2/catch.hpp>

#include <random>

#include "op_call_fuzz.h"
#include "tensor/storage_limit.h"

using namespace pt2web;

TEST_CASE("operator calls with extreme arguments are refused cleanly", "[op_fuzz]") {
  set_storage_byte_limit(size_t(64) << 20);
  std::mt19937 rng(20261207);
  std::vector<uint8_t> bytes(96);
  const int chains = 4000;
  int calls = 0;
  for (int k = 0; k < chains; ++k) {
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    const op_fuzz::ChainResult r = op_fuzz::run_op_call_chain(bytes.data(), bytes.size());
    calls += static_cast<int>(r.calls.size());
    INFO("chain " << k);
    CHECK(r.finding == "");
  }
  set_storage_byte_limit(0);
  CHECK(calls >= chains);
  CHECK(op_fuzz::fuzzable_operators().size() > 1000);
}
