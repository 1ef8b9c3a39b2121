// The operator sweep's findings under ASan and UBSan (tests/fuzz/README.md),
// each as the smallest call that reached it: integer tensors wrap as torch's
// do (the matmul value is torch 2.14's), size arithmetic past int64 is
// refused with BAD_INPUT or computed exactly, never undefined.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
}  // namespace

TEST_CASE("integer matmul wraps like torch's", "[op_fuzz_findings]") {
  // torch 2.14: tensor([[2**31-1, 3]], int32) @ tensor([[2], [2**30]], int32) == [[-1073741826]].
  Tensor a = make(DType::Int32, {1, 2}, {2147483647.0, 3.0});
  Tensor b = make(DType::Int32, {2, 1}, {2.0, 1073741824.0});
  Tensor c = call1("aten::mm", {tv(a), tv(b)});
  REQUIRE(c.dtype() == DType::Int32);
  CHECK(c.data<int32_t>()[0] == -1073741826);
}

TEST_CASE("int64 arange over the whole range has its exact length", "[op_fuzz_findings]") {
  // (end - start) is past int64 here; torch's own arithmetic overflows and returns [].
  Tensor r = call1("aten::arange.start_step", {iv(kMin), iv(kMax), iv(int64_t(1) << 62)});
  REQUIRE(r.numel() == 4);
  CHECK(r.data<int64_t>()[0] == kMin);
  CHECK(r.data<int64_t>()[1] == kMin / 2);
  CHECK(r.data<int64_t>()[2] == 0);
  CHECK(r.data<int64_t>()[3] == (int64_t(1) << 62));
  Tensor two = call1("aten::arange.start_step", {iv(-5), iv(kMax), iv(kMax)});
  REQUIRE(two.numel() == 2);
  CHECK(two.data<int64_t>()[1] == kMax - 5);
}

TEST_CASE("size expressions past int64 are refused, not wrapped", "[op_fuzz_findings]") {
  CHECK(error_code_of("_operator::add", {iv(kMax), iv(1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("_operator::sub", {iv(kMin), iv(1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("_operator::mul", {iv(int64_t(1) << 62), iv(4)}) == ErrorCode::BadInput);
  // Natively this division traps (SIGFPE), in wasm it is an instance trap.
  CHECK(error_code_of("_operator::floordiv", {iv(kMin), iv(-1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("_operator::mod", {iv(kMin), iv(-1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("_operator::neg", {iv(kMin)}) == ErrorCode::BadInput);
  CHECK(error_code_of("math::floor", {dv(1e30)}) == ErrorCode::BadInput);
  CHECK(error_code_of("torch::sym_int", {dv(std::numeric_limits<double>::quiet_NaN())}) == ErrorCode::BadInput);
  // In range they still compute as Python does.
  CHECK(call("_operator::floordiv", {iv(-7), iv(2)}).at(0).to_int() == -4);
  CHECK(call("_operator::mod", {iv(-7), iv(2)}).at(0).to_int() == 1);
  CHECK(call("_operator::add", {iv(kMax - 1), iv(1)}).at(0).to_int() == kMax);
}

TEST_CASE("split sizes that sum past int64 are refused", "[op_fuzz_findings]") {
  Tensor x = make({4}, {1, 2, 3, 4});
  CHECK(error_code_of("aten::split_with_sizes", {tv(x), ints({2, kMax})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::split_with_sizes", {tv(x), ints({kMax, kMax, 2})}) == ErrorCode::BadInput);
}
