// pt2web::quantized_add / quantized_mul against the chain they replace run
// through the reference operators (dequantize_per_tensor, aten add / mul with
// broadcasting, relu, quantize_per_tensor): equal bit for bit, for operands of
// one shape, a per-channel gate broadcast over planes (either side) and a
// trailing broadcast.
#include <catch2/catch.hpp>

#include <random>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor random_int8(const Shape& shape, std::mt19937& rng) {
  Tensor t = Tensor::empty(DType::Int8, shape);
  std::uniform_int_distribution<int> v(-128, 127);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<int8_t>()[i] = static_cast<int8_t>(v(rng));
  return t;
}

Value D(DType d) { return Value::from_dtype(d); }

Tensor dequantized(const Tensor& q, double scale, int64_t zero_point) {
  return call1("quantized_decomposed::dequantize_per_tensor.default",
               {tv(q), Value::from_double(scale), Value::from_int(zero_point), Value::from_int(-128),
                Value::from_int(127), D(DType::Int8)});
}

}  // namespace

TEST_CASE("quantized_add / quantized_mul equal dequantize, add or mul, relu, quantize", "[ops][quantized]") {
  std::mt19937 rng(9);
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{2, 3, 4, 5}, {2, 3, 4, 5}}, {{2, 3, 1, 1}, {2, 3, 4, 5}}, {{2, 3, 4, 5}, {2, 3, 1, 1}},
      {{2, 3, 4, 5}, {5}},          {{1, 3, 1, 5}, {2, 3, 4, 5}}};
  for (const auto& [shape_a, shape_b] : shapes)
    for (bool multiply : {false, true})
      for (bool relu : {false, true}) {
        INFO("a " << shape_to_string(shape_a) << " b " << shape_to_string(shape_b) << " multiply " << multiply
                  << " relu " << relu);
        const Tensor a = random_int8(shape_a, rng), b = random_int8(shape_b, rng);
        const double sa = 0.021, sb = 0.013, so = multiply ? 0.011 : 0.034;
        const int64_t za = -4, zb = 9, zo = -2;
        Tensor sum = call1(multiply ? "aten::mul.Tensor" : "aten::add.Tensor",
                           {tv(dequantized(a, sa, za)), tv(dequantized(b, sb, zb))});
        if (relu) sum = call1("aten::relu.default", {tv(sum)});
        const Tensor want = call1("quantized_decomposed::quantize_per_tensor.default",
                                  {tv(sum), Value::from_double(so), Value::from_int(zo), Value::from_int(-128),
                                   Value::from_int(127), D(DType::Int8)});
        const Tensor got = call1(multiply ? "pt2web::quantized_mul.default" : "pt2web::quantized_add.default",
                                 {tv(a), tv(b), Value::from_double(sa), Value::from_int(za), Value::from_double(sb),
                                  Value::from_int(zb), Value::from_double(so), Value::from_int(zo),
                                  Value::from_int(-128), Value::from_int(127), D(DType::Int8),
                                  relu ? Value::from_double(0.0) : Value::none(), Value::none()});
        REQUIRE(got.sizes() == want.sizes());
        for (int64_t i = 0; i < got.numel(); ++i) REQUIRE(got.data<int8_t>()[i] == want.data<int8_t>()[i]);
      }
}
