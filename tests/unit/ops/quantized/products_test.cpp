// pt2web::quantized_linear and quantized_conv2d, the integer forms of
// dequantize -> linear / conv2d (-> clamp) -> quantize chains, against the
// same chain run through the reference operators: quantized outputs may
// differ by one step where torch's float rounding and the int32 sum round
// differently, float outputs by float rounding only.
#include <catch2/catch.hpp>

#include <random>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Value D(DType d) { return Value::from_dtype(d); }

Tensor random_int8(const Shape& shape, std::mt19937& rng, int lo = -128, int hi = 127) {
  Tensor t = Tensor::empty(DType::Int8, shape);
  std::uniform_int_distribution<int> v(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<int8_t>()[i] = static_cast<int8_t>(v(rng));
  return t;
}

Tensor random_floats(const Shape& shape, std::mt19937& rng) {
  Tensor t = Tensor::empty(DType::Float32, shape);
  std::uniform_real_distribution<float> v(-1.0f, 1.0f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = v(rng);
  return t;
}

struct Chain {
  Tensor x, w, w_scales, bias;
  double x_scale = 0.02, out_scale = 0.05;
  int64_t x_zp = 3, out_zp = -5;
};

// The reference: dequantize both, the float op, clamp, quantize.
Tensor reference(const Chain& c, bool conv, std::vector<Value> geometry, double lo, double hi, bool quantize_out) {
  Tensor xf = call1("quantized_decomposed::dequantize_per_tensor.default",
                   {tv(c.x), dv(c.x_scale), iv(c.x_zp), iv(-128), iv(127), D(DType::Int8)});
  Tensor wf = call1("quantized_decomposed::dequantize_per_channel.default",
                   {tv(c.w), tv(c.w_scales), none(), iv(0), iv(-127), iv(127), D(DType::Int8)});
  std::vector<Value> args = {tv(xf), tv(wf), tv(c.bias)};
  args.insert(args.end(), geometry.begin(), geometry.end());
  Tensor y = call1(conv ? "aten::conv2d.default" : "aten::linear.default", args);
  y = call1("aten::hardtanh.default", {tv(y), dv(lo), dv(hi)});
  if (!quantize_out) return y;
  return call1("quantized_decomposed::quantize_per_tensor.default",
              {tv(y), dv(c.out_scale), iv(c.out_zp), iv(-128), iv(127), D(DType::Int8)});
}

std::vector<Value> quant_args(const Chain& c, double lo, double hi, bool quantize_out) {
  return {tv(Tensor::scalar(DType::Float64, c.x_scale)),
          tv(Tensor::scalar(DType::Int64, static_cast<double>(c.x_zp))),
          tv(c.w_scales), none(), tv(c.bias), dv(lo), dv(hi),
          quantize_out ? tv(Tensor::scalar(DType::Float64, c.out_scale)) : none(),
          quantize_out ? tv(Tensor::scalar(DType::Int64, static_cast<double>(c.out_zp))) : none(),
          iv(-128), iv(127), quantize_out ? D(DType::Int8) : none()};
}

void check_close(const Tensor& got, const Tensor& want, bool quantized) {
  REQUIRE(got.sizes() == want.sizes());
  REQUIRE(got.dtype() == want.dtype());
  double worst = 0;
  for (int64_t i = 0; i < got.numel(); ++i)
    worst = std::max(worst, std::abs(got.item_as_double(i) - want.item_as_double(i)));
  CHECK(worst <= (quantized ? 1.0 : 1e-4));
}

}  // namespace

TEST_CASE("quantized_linear matches dequantize -> linear -> quantize", "[ops][quantized]") {
  std::mt19937 rng(3);
  for (int64_t K : {1, 7, 8, 33}) {
    Chain c;
    c.x = random_int8({2, 3, K}, rng);
    c.w = random_int8({5, K}, rng, -127, 127);
    c.w_scales = make({5}, {0.01, 0.02, 0.005, 0.03, 0.015});
    c.bias = random_floats({5}, rng);
    for (bool quantize_out : {true, false}) {
      INFO("K " << K << " quantized output " << quantize_out);
      std::vector<Value> args = {tv(c.x), tv(c.w)};
      auto q = quant_args(c, 0.0, 6.0, quantize_out);
      args.insert(args.end(), q.begin(), q.end());
      check_close(call1("pt2web::quantized_linear.default", args), reference(c, false, {}, 0.0, 6.0, quantize_out),
                  quantize_out);
    }
  }
}

TEST_CASE("quantized_conv2d matches dequantize -> conv2d -> quantize", "[ops][quantized]") {
  std::mt19937 rng(5);
  struct Geometry {
    int64_t in_c, out_c, k, stride, pad, groups;
  };
  // 3x3 padded, strided, 1x1, depthwise, grouped
  for (Geometry g : {Geometry{3, 4, 3, 1, 1, 1}, Geometry{4, 6, 3, 2, 1, 1}, Geometry{5, 3, 1, 1, 0, 1},
                     Geometry{6, 6, 3, 2, 1, 6}, Geometry{4, 4, 3, 1, 1, 2}}) {
    Chain c;
    c.x = random_int8({2, g.in_c, 7, 6}, rng);
    c.w = random_int8({g.out_c, g.in_c / g.groups, g.k, g.k}, rng, -127, 127);
    std::vector<double> scales;
    for (int64_t o = 0; o < g.out_c; ++o) scales.push_back(0.004 * (o + 1));
    c.w_scales = make({g.out_c}, scales);
    c.bias = random_floats({g.out_c}, rng);
    std::vector<Value> geometry = {ints({g.stride, g.stride}), ints({g.pad, g.pad}), ints({1, 1}), iv(g.groups)};
    INFO("in " << g.in_c << " out " << g.out_c << " k " << g.k << " groups " << g.groups);
    std::vector<Value> args = {tv(c.x), tv(c.w)};
    args.insert(args.end(), geometry.begin(), geometry.end());
    auto q = quant_args(c, 0.0, 1e30, true);
    args.insert(args.end(), q.begin(), q.end());
    check_close(call1("pt2web::quantized_conv2d.default", args), reference(c, true, geometry, 0.0, 1e30, true), true);
  }
}
