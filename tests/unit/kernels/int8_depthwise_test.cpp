// The requantizing int8 kernels against definitions written here: the
// register epilogue (int8_lanes.h, through requantize_s8 / requantize_u8 on
// runs of eight) against the float steps of quantize_per_tensor done one at
// a time, in both its folded and general forms; depthwise_pairs (3x3 and
// 5x5) against depthwise_s16_reference + store_requantized on every row
// tail, stride, padding and output type.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/int8/depthwise_pairs.h"
#include "kernels/int8/depthwise_s16.h"
#include "kernels/int8/requantize.h"

using namespace pt2web;

namespace {

// torch's reference graph after the product: y = acc * m + b, clamp, then
// quantize_per_tensor's round half to even, shift and clamp; NaN -> 0.
int32_t definition(int32_t acc, float m, float b, const Requantization& r) {
  float y = static_cast<float>(acc) * m + b;
  if (y < r.lo) y = r.lo;
  if (y > r.hi) y = r.hi;
  const float q = std::nearbyint(y * r.inv_out_scale) + r.out_zero_point;
  if (std::isnan(q)) return 0;
  return static_cast<int32_t>(std::min(r.qmax, std::max(r.qmin, q)));
}

struct Params {
  std::vector<float> m, b;
  Requantization r;
};

Params params(std::mt19937& rng, int64_t channels, int variant) {
  std::uniform_real_distribution<float> scale(1e-4f, 4e-3f), shift(-3.0f, 3.0f);
  Params p;
  for (int64_t c = 0; c < channels; ++c) {
    p.m.push_back(scale(rng));
    p.b.push_back(shift(rng));
  }
  p.r.quantize = true;
  p.r.inv_out_scale = 1.0f / 0.02f;
  p.r.out_zero_point = -20.0f;
  if (variant == 1) p.r.lo = 0.0f, p.r.hi = 6.0f;                     // relu6: folded into integer clamps
  if (variant == 2) p.r.qmin = -100.0f, p.r.qmax = 90.0f;             // a narrower range
  if (variant == 3) p.b[0] = std::numeric_limits<float>::quiet_NaN();  // the general form
  if (variant == 4) p.r.lo = std::numeric_limits<float>::quiet_NaN();  // a NaN bound: no clamp
  p.r.multiplier = p.m.data();
  p.r.bias = p.b.data();
  return p;
}

}  // namespace

TEST_CASE("requantize_s8 / requantize_u8 equal quantize_per_tensor's steps", "[kernels][int8]") {
  std::mt19937 rng(21);
  std::uniform_int_distribution<int32_t> small(-20000, 20000);
  for (int variant = 0; variant < 5; ++variant)
    for (int64_t count : {1, 7, 8, 9, 16, 23}) {
      Params p = params(rng, 2, variant);
      std::vector<int32_t> acc(count);
      for (auto& v : acc) v = small(rng);
      if (count > 3) acc[1] = std::numeric_limits<int32_t>::max(), acc[2] = std::numeric_limits<int32_t>::min();
      std::vector<int8_t> s8(count + 1, 77);
      requantize_s8(acc.data(), count, 0, p.r, s8.data(), 1);
      CHECK(s8.back() == 77);
      Requantization u = p.r;
      u.qmin = 0.0f, u.qmax = 255.0f, u.out_zero_point = 100.0f;
      std::vector<uint8_t> u8(count);
      requantize_u8(acc.data(), count, 0, u, u8.data(), 1);
      for (int64_t i = 0; i < count; ++i) {
        INFO("variant " << variant << " count " << count << " i " << i << " acc " << acc[i]);
        REQUIRE(int32_t(s8[i]) == definition(acc[i], p.m[0], p.b[0], p.r));
        REQUIRE(int32_t(u8[i]) == definition(acc[i], p.m[0], p.b[0], u));
      }
    }
}

TEST_CASE("depthwise_pairs equals the int32 reference requantized", "[kernels][int8]") {
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> value(-128, 127);
  int checked = 0;
  for (int64_t kernel : {3, 5}) {
    for (int64_t width : {1, 3, 7, 8, 9, 15, 16, 17, 30})
      for (int64_t height : {1, 2, 5, 6, 7})
        for (int64_t stride : {1, 2})
          for (int64_t pad : {0, 1, 2})
            for (int kind = 0; kind < 3; ++kind) {
              ConvGeometry g;
              g.channels = 1;
              g.height = height;
              g.width = width;
              g.kernel_h = g.kernel_w = kernel;
              g.stride_h = g.stride_w = stride;
              g.pad_h = g.pad_w = pad;
              const int64_t span_h = height + 2 * pad - kernel, span_w = width + 2 * pad - kernel;
              if (span_h < 0 || span_w < 0) continue;
              g.out_h = span_h / stride + 1;
              g.out_w = span_w / stride + 1;
              REQUIRE(depthwise_pairs_fits(g));
              const int64_t P = g.out_h * g.out_w;
              const int32_t zero_point = kind == 1 ? 130 : -9;  // uint8 input for kind 1
              std::vector<int8_t> plane8(height * width);
              std::vector<uint8_t> plane_u8(height * width);
              for (int64_t i = 0; i < height * width; ++i) {
                plane8[i] = static_cast<int8_t>(value(rng));
                plane_u8[i] = static_cast<uint8_t>(value(rng) + 128);
              }
              std::vector<int16_t> w(kernel * kernel);
              for (auto& v : w) v = static_cast<int16_t>(value(rng));
              // the reference: widened padded plane, int32 sums, scalar requantization
              std::vector<int16_t> padded((height + 2 * pad) * (width + 2 * pad));
              if (kind == 1) widen_padded_plane(plane_u8.data(), height, width, pad, pad, zero_point, padded.data());
              else widen_padded_plane(plane8.data(), height, width, pad, pad, zero_point, padded.data());
              std::vector<int32_t> sums(P);
              depthwise_s16_reference(padded.data(), w.data(), g, sums.data());
              Params p = params(rng, 1, static_cast<int>(width % 5));
              std::vector<int16_t> scratch(depthwise_pairs_scratch(g) + 1, 5555);
              RequantizedOutput o;
              o.requant = &p.r;
              o.ld_m = 0;
              o.ld_n = 1;
              INFO("kernel " << kernel << " width " << width << " height " << height << " stride " << stride << " pad " << pad << " kind "
                            << kind);
              if (kind == 2) {  // float32 output: the exact sums times one
                const std::vector<float> ones(1, 1.0f);
                Requantization identity;
                identity.multiplier = ones.data();
                o.requant = &identity;
                o.kind = QuantizedOutputKind::Float32;
                std::vector<float> got(P + 1, -1.0f);
                o.data = got.data();
                depthwise_pairs(plane8.data(), g, zero_point, w.data(), o, scratch.data());
                CHECK(got.back() == -1.0f);
                for (int64_t i = 0; i < P; ++i) REQUIRE(got[i] == static_cast<float>(sums[i]));
              } else {
                std::vector<int8_t> want(P), got(P + 1, 66);
                o.kind = kind == 1 ? QuantizedOutputKind::UInt8 : QuantizedOutputKind::Int8;
                o.data = got.data();
                if (kind == 1) {
                  p.r.qmin = 0.0f, p.r.qmax = 255.0f, p.r.out_zero_point = 100.0f;
                  requantize_u8(sums.data(), P, 0, p.r, reinterpret_cast<uint8_t*>(want.data()), 1);
                  depthwise_pairs(plane_u8.data(), g, zero_point, w.data(), o, scratch.data());
                } else {
                  requantize_s8(sums.data(), P, 0, p.r, want.data(), 1);
                  depthwise_pairs(plane8.data(), g, zero_point, w.data(), o, scratch.data());
                }
                CHECK(got.back() == 66);
                got.pop_back();
                REQUIRE(got == want);
              }
              CHECK(scratch.back() == 5555);
              ++checked;
            }
  }
  CHECK(checked > 600);
}
