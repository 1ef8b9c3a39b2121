// scaled_dot_product_attention and its CPU variants on small hand-checkable
// cases: masks, causal, scale, broadcasting, grouped-query heads, fully masked
// rows, logsumexp, dtypes and the errors ATen raises.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "ops/views.h"
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor sdpa(std::vector<Value> args) { return call("aten::scaled_dot_product_attention.default", args)[0].tensor; }

ErrorCode error_of(std::vector<Value> args, const std::string& name = "aten::scaled_dot_product_attention.default") {
  return error_code_of(name, std::move(args));
}

}  // namespace

TEST_CASE("sdpa averages values for equal scores", "[attention]") {
  Tensor q = make(DType::Float32, {1, 1}, {1});
  Tensor k = make(DType::Float32, {2, 1}, {0, 0});
  Tensor v = make(DType::Float32, {2, 1}, {2, 4});
  check_values(sdpa({tv(q), tv(k), tv(v)}), {1, 1}, {3});
}

TEST_CASE("sdpa applies the default scale 1/sqrt(E) and an explicit one", "[attention]") {
  // E = 4: q.k0 = 4a, scaled by 1/2 -> 2a = ln 3, so the weights are 3/4 and 1/4.
  const double a = std::log(3.0) / 2;
  Tensor q = make(DType::Float32, {1, 4}, {1, 1, 1, 1});
  Tensor k = make(DType::Float32, {2, 4}, {a, a, a, a, 0, 0, 0, 0});
  Tensor v = make(DType::Float32, {2, 1}, {4, 0});
  check_values(sdpa({tv(q), tv(k), tv(v)}), {1, 1}, {3});
  // scale = 1/4 gives scores a*... = ln(3)/2 and 0: weights sqrt3/(sqrt3+1).
  Tensor out = sdpa({tv(q), tv(k), tv(v), Value::none(), Value::from_double(0.0), Value::from_bool(false),
                     Value::from_double(0.25)});
  const double w = std::sqrt(3.0) / (std::sqrt(3.0) + 1);
  check_values(out, {1, 1}, {4 * w});
  // A negative scale flips the scores: weights 1/4 and 3/4.
  out = sdpa({tv(q), tv(k), tv(v), Value::none(), Value::from_double(0.0), Value::from_bool(false),
              Value::from_double(-0.5)});
  check_values(out, {1, 1}, {1});
}

TEST_CASE("sdpa bool masks keep True and float masks add", "[attention]") {
  Tensor q = make(DType::Float32, {1, 1}, {1});
  Tensor k = make(DType::Float32, {2, 1}, {0, 0});
  Tensor v = make(DType::Float32, {2, 1}, {2, 4});
  check_values(sdpa({tv(q), tv(k), tv(v), tv(make_bool({1, 2}, {true, false}))}), {1, 1}, {2});
  check_values(sdpa({tv(q), tv(k), tv(v), tv(make(DType::Float32, {2}, {-kInf, 0}))}), {1, 1}, {4});
  // ln 3 added to the first score: weights 3/4, 1/4.
  check_values(sdpa({tv(q), tv(k), tv(v), tv(make(DType::Float32, {1, 2}, {std::log(3.0), 0}))}), {1, 1}, {2.5});
}

TEST_CASE("sdpa fully masked rows give zeros, not NaN", "[attention]") {
  Tensor q = make(DType::Float32, {2, 1}, {1, 1});
  Tensor k = make(DType::Float32, {2, 1}, {0, 0});
  Tensor v = make(DType::Float32, {2, 1}, {2, 4});
  Tensor mask = make_bool({2, 2}, {false, false, true, true});
  check_values(sdpa({tv(q), tv(k), tv(v), tv(mask)}), {2, 1}, {0, 3});
}

TEST_CASE("sdpa NaN scores propagate to the whole row", "[attention]") {
  Tensor q = make(DType::Float32, {1, 1}, {1});
  Tensor k = make(DType::Float32, {2, 1}, {std::nan(""), 0});
  Tensor v = make(DType::Float32, {2, 1}, {2, 4});
  CHECK(std::isnan(sdpa({tv(q), tv(k), tv(v)}).item_as_double(0)));
}

TEST_CASE("sdpa is_causal keeps the upper-left lower triangle", "[attention]") {
  // L = 2, S = 3: row 0 sees key 0, row 1 sees keys 0 and 1.
  Tensor q = make(DType::Float32, {2, 1}, {1, 1});
  Tensor k = make(DType::Float32, {3, 1}, {0, 0, 0});
  Tensor v = make(DType::Float32, {3, 1}, {2, 4, 100});
  check_values(sdpa({tv(q), tv(k), tv(v), Value::none(), Value::from_double(0.0), Value::from_bool(true)}), {2, 1},
               {2, 3});
}

TEST_CASE("sdpa broadcasts batch dims and accepts strided views", "[attention]") {
  Tensor q = make(DType::Float32, {2, 1, 1}, {1, -1});
  Tensor k = make(DType::Float32, {2, 1}, {std::log(3.0), 0});
  // v is the transpose of a [1, 2] tensor: a non-contiguous [2, 1] view.
  Tensor v = transpose_view(make(DType::Float32, {1, 2}, {4, 0}), 0, 1);
  // batch 0: weights 3/4, 1/4 -> 3; batch 1: scores -ln3, 0 -> 1/4, 3/4 -> 1.
  check_values(sdpa({tv(q), tv(k), tv(v), Value::none(), Value::from_double(0.0), Value::from_bool(false),
                     Value::from_double(1.0)}),
               {2, 1, 1}, {3, 1});
}

TEST_CASE("sdpa enable_gqa repeats key/value heads", "[attention]") {
  // 2 query heads share one key/value head.
  Tensor q = make(DType::Float32, {2, 1, 1}, {1, -1});
  Tensor k = make(DType::Float32, {1, 2, 1}, {std::log(3.0), 0});
  Tensor v = make(DType::Float32, {1, 2, 1}, {4, 0});
  Tensor out = sdpa({tv(q), tv(k), tv(v), Value::none(), Value::from_double(0.0), Value::from_bool(false),
                     Value::from_double(1.0), Value::from_bool(true)});
  check_values(out, {2, 1, 1}, {3, 1});
  Tensor k3 = make(DType::Float32, {3, 2, 1}, {0, 0, 0, 0, 0, 0});
  Tensor v3 = make(DType::Float32, {3, 2, 1}, {0, 0, 0, 0, 0, 0});
  CHECK(error_of({tv(q), tv(k3), tv(v3), Value::none(), Value::from_double(0.0), Value::from_bool(false),
                  Value::none(), Value::from_bool(true)}) == ErrorCode::BadInput);
}

TEST_CASE("sdpa keeps 16-bit dtypes and handles empty sequences", "[attention]") {
  Tensor q = make(DType::BFloat16, {1, 1}, {1});
  Tensor k = make(DType::BFloat16, {2, 1}, {0, 0});
  Tensor v = make(DType::BFloat16, {2, 1}, {2, 4});
  Tensor out = sdpa({tv(q), tv(k), tv(v)});
  CHECK(out.dtype() == DType::BFloat16);
  check_values(out, {1, 1}, {3});
  // S = 0: every row is empty and gives zeros.
  Tensor k0 = Tensor::empty(DType::Float32, {0, 1});
  Tensor v0 = Tensor::empty(DType::Float32, {0, 2});
  check_values(sdpa({tv(make(DType::Float32, {1, 1}, {1})), tv(k0), tv(v0)}), {1, 2}, {0, 0});
}

TEST_CASE("sdpa rejects what ATen rejects", "[attention]") {
  Tensor q = make(DType::Float32, {1, 1}, {1});
  Tensor k = make(DType::Float32, {2, 1}, {0, 0});
  Tensor v = make(DType::Float32, {2, 1}, {2, 4});
  CHECK(error_of({tv(q), tv(k.to(DType::Float64)), tv(v)}) == ErrorCode::BadInput);
  CHECK(error_of({tv(q), tv(k), tv(v), tv(make_bool({1, 2}, {true, true})), Value::from_double(0.0),
                  Value::from_bool(true)}) == ErrorCode::BadInput);
  CHECK(error_of({tv(q), tv(k), tv(v), Value::none(), Value::from_double(0.5)}) == ErrorCode::Unsupported);
  CHECK(error_of({tv(q), tv(k), tv(v), tv(make(DType::Int64, {1, 2}, {0, 0}))}) == ErrorCode::BadInput);
  CHECK(error_of({tv(q.to(DType::Int64)), tv(k.to(DType::Int64)), tv(v.to(DType::Int64))}) == ErrorCode::Unsupported);
}

TEST_CASE("_scaled_dot_product_attention_math returns the weights", "[attention]") {
  Tensor q = make(DType::Float32, {1, 1}, {1});
  Tensor k = make(DType::Float32, {2, 1}, {std::log(3.0), 0});
  Tensor v = make(DType::Float32, {2, 1}, {4, 0});
  auto out = call("aten::_scaled_dot_product_attention_math.default",
                  {tv(q), tv(k), tv(v), Value::none(), Value::from_double(0.0), Value::from_bool(false),
                   Value::none(), Value::from_double(1.0)});
  check_values(out[0].tensor, {1, 1}, {3});
  check_values(out[1].tensor, {1, 2}, {0.75, 0.25});
}

TEST_CASE("_scaled_dot_product_flash_attention_for_cpu returns logsumexp", "[attention]") {
  // [B=1, H=1, L=2, E=1]; row 1 is fully masked by an additive -inf mask.
  Tensor q = make(DType::Float32, {1, 1, 2, 1}, {1, 1});
  Tensor k = make(DType::Float32, {1, 1, 2, 1}, {0, 0});
  Tensor v = make(DType::Float32, {1, 1, 2, 1}, {2, 4});
  Tensor mask = make(DType::Float32, {2, 2}, {0, 0, -kInf, -kInf});
  const std::string name = "aten::_scaled_dot_product_flash_attention_for_cpu.default";
  auto out = call(name, {tv(q), tv(k), tv(v), Value::from_double(0.0), Value::from_bool(false), tv(mask)});
  check_values(out[0].tensor, {1, 1, 2, 1}, {3, 0});
  check_values(out[1].tensor, {1, 1, 2}, {std::log(2.0), 0});
  // Bool masks and 3-D inputs are outside this kernel's contract.
  CHECK(error_of({tv(q), tv(k), tv(v), Value::from_double(0.0), Value::from_bool(false),
                  tv(make_bool({2, 2}, {true, true, true, true}))},
                 name) == ErrorCode::BadInput);
  Tensor q3 = make(DType::Float32, {1, 2, 1}, {1, 1});
  CHECK(error_of({tv(q3), tv(q3), tv(q3)}, name) == ErrorCode::BadInput);
}

TEST_CASE("sdpa output takes the query's strides where torch runs the flash kernel", "[attention]") {
  // [B, L, H, E] memory seen as [B, H, L, E], as multi-head attention builds it.
  Tensor base = make(DType::Float32, {1, 2, 2, 1}, {1, 2, 3, 4});
  Tensor q = transpose_view(base, 1, 2);
  Tensor out = sdpa({tv(q), tv(q), tv(q)});
  CHECK(out.strides() == q.strides());
  Tensor reference = sdpa({tv(q.contiguous()), tv(q.contiguous()), tv(q.contiguous())});
  CHECK(reference.is_contiguous());
  for (int64_t i = 0; i < 4; ++i) CHECK(out.item_as_double(i) == Approx(reference.item_as_double(i)));
  // 3-D inputs take the math path: a contiguous result.
  Tensor q3 = transpose_view(make(DType::Float32, {2, 2, 1}, {1, 2, 3, 4}), 0, 1);
  CHECK(sdpa({tv(q3), tv(q3), tv(q3)}).is_contiguous());
  // The CPU flash op's logsumexp is a [B, L, H] buffer seen as [B, H, L].
  auto flash = call("aten::_scaled_dot_product_flash_attention_for_cpu.default", {tv(q), tv(q), tv(q)});
  CHECK(flash[0].tensor.strides() == q.strides());
  CHECK(flash[1].tensor.sizes() == Shape{1, 2, 2});
  CHECK(flash[1].tensor.strides() == Shape{4, 1, 2});
}
