// The quantized_decomposed operators (PT2E): torch's rounding (half to even),
// clamping, zero points, per-channel axes, per-token rows, choose_qparams
// rules and the errors torch raises, on values worked out from the formulas
// of torch/ao/quantization/fx/_decomposed.py. The fixtures in
// tests/fixtures-int8 check whole programs against torch itself.
#include <catch2/catch.hpp>

#include <cfloat>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Value D(DType d) { return Value::from_dtype(d); }

std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.item_as_double(i));
  return out;
}

}  // namespace

TEST_CASE("quantize_per_tensor rounds half to even, adds the zero point, clamps", "[ops][quantized]") {
  Tensor x = make({6}, {0.5, 1.5, 2.5, -0.5, 300.0, -300.0});
  Tensor q = call1("quantized_decomposed::quantize_per_tensor.default", {tv(x), dv(1.0), iv(0), iv(-128), iv(127), D(DType::Int8)});
  CHECK(q.dtype() == DType::Int8);
  CHECK(values(q) == std::vector<double>{0, 2, 2, 0, 127, -128});
  // round(x / 0.5) + 3 into uint8 [0, 255]
  Tensor u = call1("quantized_decomposed::quantize_per_tensor.default",
                  {tv(make({3}, {0.25, -10.0, 1.0})), dv(0.5), iv(3), iv(0), iv(255), D(DType::UInt8)});
  CHECK(u.dtype() == DType::UInt8);
  CHECK(values(u) == std::vector<double>{3, 0, 5});
  // a narrower range than the dtype's (XNNPACK's symmetric int8 weights use [-127, 127])
  Tensor n = call1("quantized_decomposed::quantize_per_tensor.default",
                  {tv(make({2}, {-1000.0, 1000.0})), dv(1.0), iv(0), iv(-127), iv(127), D(DType::Int8)});
  CHECK(values(n) == std::vector<double>{-127, 127});
  // int16 and int32 ranges
  Tensor s = call1("quantized_decomposed::quantize_per_tensor.default",
                  {tv(make({2}, {-1e6, 40000.0})), dv(1.0), iv(0), iv(-32768), iv(32767), D(DType::Int16)});
  CHECK(values(s) == std::vector<double>{-32768, 32767});
  Tensor l = call1("quantized_decomposed::quantize_per_tensor.default",
                  {tv(make({1}, {123456.0})), dv(1.0), iv(0), iv(-2147483648LL), iv(2147483647LL), D(DType::Int32)});
  CHECK(values(l) == std::vector<double>{123456});
}

TEST_CASE("dequantize_per_tensor subtracts the zero point and scales, in out_dtype", "[ops][quantized]") {
  Tensor q = make({3}, {-128, 0, 127}, DType::Int8);
  Tensor x = call1("quantized_decomposed::dequantize_per_tensor.default", {tv(q), dv(0.5), iv(-2), iv(-128), iv(127), D(DType::Int8)});
  CHECK(x.dtype() == DType::Float32);
  CHECK(values(x) == std::vector<double>{-63.0, 1.0, 64.5});
  Tensor d = call1("quantized_decomposed::dequantize_per_tensor.default",
                  {tv(q), dv(0.1), iv(0), iv(-128), iv(127), D(DType::Int8), D(DType::Float64)});
  CHECK(d.dtype() == DType::Float64);
  CHECK(d.item_as_double(2) == 127 * 0.1);
  // .tensor: 1-element tensor parameters, as choose_qparams returns them
  Tensor t = call1("quantized_decomposed::dequantize_per_tensor.tensor",
                  {tv(q), tv(make({1}, {0.5}, DType::Float64)), tv(make({1}, {-2}, DType::Int64)), iv(-128), iv(127),
                   D(DType::Int8)});
  CHECK(values(t) == values(x));
  Tensor t2 = call1("quantized_decomposed::dequantize_per_tensor.tensor2",
                   {tv(q), tv(make({1}, {0.5}, DType::Float64)), tv(make({1}, {-2}, DType::Int64)),
                    tv(make({}, {-128}, DType::Int64)), tv(make({}, {127}, DType::Int64)), D(DType::Int8)});
  CHECK(values(t2) == values(x));
}

TEST_CASE("per-tensor quantization rejects what torch rejects", "[ops][quantized]") {
  Tensor x = make({2}, {1.0, 2.0});
  // quant_min below int8's range
  CHECK(error_code_of("quantized_decomposed::quantize_per_tensor.default", {tv(x), dv(1.0), iv(0), iv(-129), iv(127), D(DType::Int8)}) ==
        ErrorCode::BadInput);
  // an integer input to quantize
  CHECK(error_code_of("quantized_decomposed::quantize_per_tensor.default",
                 {tv(make({1}, {1}, DType::Int32)), dv(1.0), iv(0), iv(-128), iv(127), D(DType::Int8)}) == ErrorCode::BadInput);
  // dequantize of values whose dtype is not the one named
  CHECK(error_code_of("quantized_decomposed::dequantize_per_tensor.default",
                 {tv(make({1}, {1}, DType::UInt8)), dv(1.0), iv(0), iv(-128), iv(127), D(DType::Int8)}) == ErrorCode::BadInput);
  // .tensor parameters must have one element
  CHECK(error_code_of("quantized_decomposed::quantize_per_tensor.tensor",
                 {tv(x), tv(make({2}, {1.0, 1.0})), tv(make({1}, {0}, DType::Int64)), iv(-128), iv(127), D(DType::Int8)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("per-channel quantization uses one pair per index of the axis", "[ops][quantized]") {
  // [2, 3] along axis 0 and along axis -1 (= 1)
  Tensor x = make({2, 3}, {1.0, 2.0, 3.0, -1.0, -2.0, -3.0});
  Tensor q0 = call1("quantized_decomposed::quantize_per_channel.default",
                   {tv(x), tv(make({2}, {0.5, 1.0})), tv(make({2}, {0, 1}, DType::Int64)), iv(0), iv(-128), iv(127),
                    D(DType::Int8)});
  CHECK(values(q0) == std::vector<double>{2, 4, 6, 0, -1, -2});
  Tensor q1 = call1("quantized_decomposed::quantize_per_channel.default",
                   {tv(x), tv(make({3}, {1.0, 2.0, 4.0})), tv(make({3}, {0, 0, 0}, DType::Int64)), iv(-1), iv(-128),
                    iv(127), D(DType::Int8)});
  CHECK(values(q1) == std::vector<double>{1, 1, 1, -1, -1, -1});  // 0.75 rounds to 1
  Tensor d = call1("quantized_decomposed::dequantize_per_channel.default",
                  {tv(q0), tv(make({2}, {0.5, 1.0})), tv(make({2}, {0, 1}, DType::Int64)), iv(0), iv(-128), iv(127),
                   D(DType::Int8)});
  CHECK(values(d) == std::vector<double>{1.0, 2.0, 3.0, -1.0, -2.0, -3.0});
  // no zero points: q * scale
  Tensor n = call1("quantized_decomposed::dequantize_per_channel.default",
                  {tv(q0), tv(make({2}, {0.5, 1.0})), none(), iv(0), iv(-128), iv(127), D(DType::Int8)});
  CHECK(values(n) == std::vector<double>{1.0, 2.0, 3.0, 0.0, -1.0, -2.0});
  // scales that do not match the axis
  CHECK(error_code_of("quantized_decomposed::dequantize_per_channel.default",
                 {tv(q0), tv(make({3}, {1.0, 1.0, 1.0})), none(), iv(0), iv(-128), iv(127), D(DType::Int8)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("quantized_decomposed::quantize_per_channel.default",
                 {tv(x), tv(make({2}, {1.0, 1.0})), tv(make({2}, {0, 0}, DType::Int64)), iv(2), iv(-128), iv(127),
                  D(DType::Int8)}) == ErrorCode::BadInput);
}

TEST_CASE("choose_qparams follows determine_qparams in float32", "[ops][quantized]") {
  Tensor x = make({3}, {-1.0, 0.0, 3.0});
  auto out = call("quantized_decomposed::choose_qparams.tensor", {tv(x), iv(-128), iv(127), dv(FLT_EPSILON), D(DType::Int8)});
  REQUIRE(out.size() == 2);
  CHECK(out[0].tensor.dtype() == DType::Float64);
  CHECK(out[0].tensor.sizes() == Shape{1});
  CHECK(out[0].tensor.item_as_double() == static_cast<double>(4.0f / 255.0f));
  CHECK(out[1].tensor.dtype() == DType::Int64);
  CHECK(out[1].tensor.item_as_int() == -64);  // -128 - round(-1 / scale) = -128 + 64
  // all positive: min_neg = 0, zero point qmin
  auto pos = call("quantized_decomposed::choose_qparams.tensor",
                      {tv(make({2}, {1.0, 2.0})), iv(-128), iv(127), dv(FLT_EPSILON), D(DType::Int8)});
  CHECK(pos[1].tensor.item_as_int() == -128);
  // all zero: the scale is eps
  auto zero = call("quantized_decomposed::choose_qparams.tensor",
                       {tv(make({2}, {0.0, 0.0})), iv(-128), iv(127), dv(0.25), D(DType::Int8)});
  CHECK(zero[0].tensor.item_as_double() == 0.25);
  auto sym = call("quantized_decomposed::choose_qparams_symmetric.tensor",
                      {tv(x), iv(-128), iv(127), dv(FLT_EPSILON), D(DType::Int8)});
  CHECK(sym[0].tensor.item_as_double() == static_cast<double>(3.0f / 127.5f));
  CHECK(sym[1].tensor.item_as_int() == 0);
  auto sym_u8 = call("quantized_decomposed::choose_qparams_symmetric.tensor",
                         {tv(x), iv(0), iv(255), dv(FLT_EPSILON), D(DType::UInt8)});
  CHECK(sym_u8[1].tensor.item_as_int() == 128);
  // a range without 0, and NaN inputs (torch's assertions)
  CHECK(error_code_of("quantized_decomposed::choose_qparams.tensor", {tv(x), iv(1), iv(127), dv(FLT_EPSILON), D(DType::Int8)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("quantized_decomposed::choose_qparams.tensor",
                 {tv(make({2}, {1.0, NAN})), iv(-128), iv(127), dv(FLT_EPSILON), D(DType::Int8)}) == ErrorCode::BadInput);
}

TEST_CASE("per-token ops use one pair per row of the last dim", "[ops][quantized]") {
  Tensor x = make({2, 2}, {-1.0, 3.0, 0.5, -0.25});
  auto asym = call("quantized_decomposed::choose_qparams_per_token_asymmetric.default", {tv(x), D(DType::Int8)});
  CHECK(asym[0].tensor.sizes() == Shape{2, 1});
  CHECK(asym[0].tensor.dtype() == DType::Float64);
  CHECK(asym[0].tensor.item_as_double(0) == static_cast<double>(4.0f / 255.0f));
  CHECK(asym[1].tensor.item_as_int(0) == -64);  // clamp(-128 + 63.75) rounded
  auto sym = call("quantized_decomposed::choose_qparams_per_token.default", {tv(x), D(DType::Int8)});
  CHECK(sym[0].tensor.dtype() == DType::Float32);
  CHECK(sym[0].tensor.item_as_double(0) == static_cast<double>(3.0f / 127.0f));
  CHECK(sym[0].tensor.item_as_double(1) == static_cast<double>(0.5f / 127.0f));
  CHECK(values(sym[1].tensor) == std::vector<double>{0, 0});
  // quantize_per_token adds the zero point before rounding: round(2 + 0.5) = 2, round(-1 + 0.5) = -0
  Tensor q = call1("quantized_decomposed::quantize_per_token.default",
                  {tv(make({1, 2}, {1.0, -0.5})), tv(make({1, 1}, {0.5})), tv(make({1, 1}, {0.5})), iv(-128), iv(127),
                   D(DType::Int8)});
  CHECK(values(q) == std::vector<double>{2, 0});
  Tensor d = call1("quantized_decomposed::dequantize_per_token.default",
                  {tv(make({2, 2}, {1, 2, 3, 4}, DType::Int8)), tv(make({2, 1}, {0.5, 2.0}, DType::Float64)),
                   tv(make({2, 1}, {1, 0}, DType::Int64)), iv(-128), iv(127), D(DType::Int8), D(DType::Float32)});
  CHECK(d.dtype() == DType::Float32);
  CHECK(values(d) == std::vector<double>{0.0, 0.5, 6.0, 8.0});
  CHECK(error_code_of("quantized_decomposed::quantize_per_token.default",
                 {tv(x), tv(make({3, 1}, {1, 1, 1})), tv(make({3, 1}, {0, 0, 0})), iv(-128), iv(127), D(DType::Int8)}) ==
        ErrorCode::BadInput);
}
