// Operator behaviour the OpInfo corpus found missing or off (tests/conformance):
// integer convolutions, which ATen computes exactly, the
// prims.convert_element_type of decomposed graphs, and 16-bit linear/addmm
// rounded once. Self-contained (calls the
// op table directly) so it does not depend on a family's test helpers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor tensor_of(DType dtype, const Shape& shape, const std::vector<int64_t>& values) {
  Tensor t = Tensor::empty(DType::Int64, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<int64_t>()[i] = values[i];
  return t.to(dtype);
}

std::vector<int64_t> ints_of(const Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.item_as_int(i));
  return out;
}

}  // namespace

TEST_CASE("integer convolutions are exact in their dtype, as ATen computes them", "[convolution]") {
  // 2^40 + 1 is exact in int64 and not in float32: the sum proves the integer path.
  const int64_t big = int64_t(1) << 40;
  Tensor y = call1("aten::conv1d.default", {tv(tensor_of(DType::Int64, {1, 1, 3}, {big, 1, 2})),
                                             tv(tensor_of(DType::Int64, {1, 1, 2}, {1, 1}))});
  CHECK(y.dtype() == DType::Int64);
  CHECK(ints_of(y) == std::vector<int64_t>{big + 1, 3});

  Tensor t = call1("aten::conv_transpose1d.default", {tv(tensor_of(DType::Int32, {1, 1, 2}, {1, 2})),
                                                       tv(tensor_of(DType::Int32, {1, 1, 3}, {1, 1, 1})),
                                                       tv(tensor_of(DType::Int32, {1}, {10}))});
  CHECK(t.dtype() == DType::Int32);
  CHECK(t.sizes() == Shape{1, 1, 4});
  CHECK(ints_of(t) == std::vector<int64_t>{11, 13, 13, 12});

  // Grouped, through the Core ATen form with every argument spelled out.
  Tensor g = call1("aten::convolution.default",
                    {tv(tensor_of(DType::Int64, {1, 2, 2}, {1, 2, 3, 4})),
                     tv(tensor_of(DType::Int64, {2, 1, 1}, {2, -1})), Value::none(), Value::from_ints({1}), Value::from_ints({0}), Value::from_ints({1}),
                     Value::from_bool(false), Value::from_ints({0}), Value::from_int(2)});
  CHECK(ints_of(g) == std::vector<int64_t>{2, 4, -3, -4});
}

TEST_CASE("prims.convert_element_type converts into a new tensor", "[elementwise]") {
  Tensor x = Tensor::empty(DType::Float32, {2});
  x.data<float>()[0] = 1.7f;
  x.data<float>()[1] = -1.7f;
  Tensor i = call1("prims::convert_element_type.default", {tv(x), Value::from_dtype(DType::Int32)});
  CHECK(i.dtype() == DType::Int32);
  CHECK(ints_of(i) == std::vector<int64_t>{1, -1});
  Tensor same = call1("prims::convert_element_type.default", {tv(x), Value::from_dtype(DType::Float32)});
  CHECK(same.storage() != x.storage());
  CHECK(same.item_as_double(0) == Approx(1.7));
}

TEST_CASE("bfloat16 linear and addmm round the product plus bias once", "[linear_algebra]") {
  // 1 + 2^-8 is a tie in bfloat16 (steps of 2^-7 at 1) and rounds to 1; adding
  // the bias 2^-8 to that gives 1 again, while the exact sum 1 + 2^-7 is representable.
  Tensor x = Tensor::empty(DType::Float32, {1, 2}), w = Tensor::empty(DType::Float32, {1, 2});
  Tensor bias = Tensor::empty(DType::Float32, {1});
  x.data<float>()[0] = 1, x.data<float>()[1] = 1;
  w.data<float>()[0] = 1, w.data<float>()[1] = 1.0f / 256;
  bias.data<float>()[0] = 1.0f / 256;
  Tensor xb = x.to(DType::BFloat16), wb = w.to(DType::BFloat16), bb = bias.to(DType::BFloat16);
  Tensor lin = call1("aten::linear.default", {tv(xb), tv(wb), tv(bb)});
  CHECK(lin.dtype() == DType::BFloat16);
  CHECK(lin.item_as_double(0) == 1.0078125);
  Tensor wt = w.to(DType::BFloat16).as_strided({2, 1}, {1, 2}, 0);
  Tensor mm = call1("aten::addmm.default", {tv(bb), tv(xb), tv(wt)});
  CHECK(mm.dtype() == DType::BFloat16);
  CHECK(mm.item_as_double(0) == 1.0078125);
}
