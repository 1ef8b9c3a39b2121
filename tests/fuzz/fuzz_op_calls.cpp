// The program fuzzer: libFuzzer's bytes become chains of operator calls with
// extreme but schema-valid arguments (support/op_call_fuzz.h), so mutations
// reach every kernel's size arithmetic rather than the archive reader. Tensors
// past 64 MiB are refused as out of memory (tensor/storage_limit.h), so a
// valid but enormous size is a clean refusal, not gigabytes reserved.
#include <cstdio>
#include <cstdlib>

#include "op_call_fuzz.h"
#include "tensor/storage_limit.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pt2web::set_storage_byte_limit(size_t(64) << 20);
  const pt2web::op_fuzz::ChainResult result = pt2web::op_fuzz::run_op_call_chain(data, size);
  if (!result.finding.empty()) {
    std::fprintf(stderr, "fuzz_op_calls: %s\n", result.finding.c_str());
    std::abort();
  }
  return 0;
}
