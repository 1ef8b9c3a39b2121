// Per-tensor quantization and min/max kernels (kernels/int8/quantize.h)
// against the definitions written out here with double-checked scalar
// steps, on every length around the 16-wide SIMD body and its tail, with
// half-way values (round half to even), values far outside the range, and
// NaN and infinities. Under wasm the SIMD paths run; natively the loops.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/int8/quantize.h"

using namespace pt2web;

namespace {

template <typename Q>
Q quantize_definition(float x, const PerTensorQuantization& p) {
  float v = std::nearbyint(x * p.inv_scale) + p.zero_point;
  if (std::isnan(v)) return 0;
  v = std::fmin(std::fmax(v, p.qmin), p.qmax);
  return static_cast<Q>(v);
}

std::vector<float> awkward_values(int64_t n, std::mt19937& rng) {
  const float specials[] = {0.5f,   1.5f,  2.5f,  -0.5f, -2.5f, 1e9f, -1e9f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), std::nanf(""), -0.0f, 126.5f, -127.5f};
  std::uniform_real_distribution<float> uniform(-300.0f, 300.0f);
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = rng() % 4 == 0 ? specials[rng() % 13] : uniform(rng);
  return x;
}

}  // namespace

TEST_CASE("quantize_f32_s8/u8 match the definition on every tail", "[kernels][int8]") {
  std::mt19937 rng(11);
  for (int64_t n = 0; n <= 40; ++n) {
    const std::vector<float> x = awkward_values(n, rng);
    const PerTensorQuantization s8{1.0f, 3.0f, -128.0f, 127.0f}, u8{0.5f, 128.0f, 0.0f, 255.0f};
    std::vector<int8_t> got_s8(n + 1, 99);
    std::vector<uint8_t> got_u8(n + 1, 99);
    quantize_f32_s8(x.data(), n, s8, got_s8.data());
    quantize_f32_u8(x.data(), n, u8, got_u8.data());
    for (int64_t i = 0; i < n; ++i) {
      INFO("n " << n << " i " << i << " x " << x[i]);
      CHECK(got_s8[i] == quantize_definition<int8_t>(x[i], s8));
      CHECK(got_u8[i] == quantize_definition<uint8_t>(x[i], u8));
    }
    CHECK(got_s8[n] == 99);  // nothing written past the end
    CHECK(got_u8[n] == 99);
  }
}

TEST_CASE("min_max_f32 finds the extremes and reports NaN at any position", "[kernels][int8]") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
  // (wasm: four chains of 16 values, then 4 at a time, then one at a time)
  std::vector<int64_t> sizes;
  for (int64_t n = 1; n <= 40; ++n) sizes.push_back(n);
  for (int64_t n : {47, 63, 64, 65, 100}) sizes.push_back(n);
  for (int64_t n : sizes) {
    std::vector<float> x(n);
    for (auto& v : x) v = uniform(rng);
    const int64_t at = static_cast<int64_t>(rng() % n);
    x[at] = 50.0f;
    x[(at + n / 2) % n] = -60.0f + (n == 1 ? 110.0f : 0.0f);
    float lo = x[0], hi = x[0];
    for (float v : x) lo = std::fmin(lo, v), hi = std::fmax(hi, v);
    const FloatRange r = min_max_f32(x.data(), n);
    INFO("n " << n);
    CHECK(r.lo == lo);
    CHECK(r.hi == hi);
    CHECK_FALSE(r.has_nan);
    for (int64_t where = 0; where < n; ++where) {
      std::vector<float> y = x;
      y[where] = std::nanf("");
      CHECK(min_max_f32(y.data(), n).has_nan);
      y[where] = where % 2 ? -INFINITY : INFINITY;
      const FloatRange inf = min_max_f32(y.data(), n);
      CHECK((where % 2 ? inf.lo : inf.hi) == y[where]);
      CHECK_FALSE(inf.has_nan);
    }
  }
}
