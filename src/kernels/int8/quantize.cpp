#include "kernels/int8/quantize.h"

#include <cmath>
#include <type_traits>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace pt2web {

namespace {

template <typename Q>
inline Q quantize_one(float x, const PerTensorQuantization& p) {
  float v = std::nearbyint(x * p.inv_scale) + p.zero_point;
  v = v < p.qmin ? p.qmin : (v > p.qmax ? p.qmax : v);
  return v == v ? static_cast<Q>(v) : Q(0);
}

template <typename Q>
void quantize(const float* __restrict x, int64_t n, const PerTensorQuantization& p, Q* __restrict out) {
  int64_t i = 0;
#if defined(__wasm_simd128__)
  const v128_t inv = wasm_f32x4_splat(p.inv_scale), zp = wasm_f32x4_splat(p.zero_point);
  const v128_t lo = wasm_f32x4_splat(p.qmin), hi = wasm_f32x4_splat(p.qmax);
  auto four = [&](const float* in) {
    // pmax/pmin are the scalar `a < b ? b : a` forms: a NaN lane stays NaN
    // until the mask turns it into 0.
    v128_t v = wasm_f32x4_add(wasm_f32x4_nearest(wasm_f32x4_mul(wasm_v128_load(in), inv)), zp);
    v = wasm_f32x4_pmin(wasm_f32x4_pmax(v, lo), hi);
    v = wasm_v128_and(v, wasm_f32x4_eq(v, v));
    return wasm_i32x4_trunc_sat_f32x4(v);
  };
  for (; i + 16 <= n; i += 16) {
    const v128_t a = wasm_i16x8_narrow_i32x4(four(x + i), four(x + i + 4));
    const v128_t b = wasm_i16x8_narrow_i32x4(four(x + i + 8), four(x + i + 12));
    wasm_v128_store(out + i, std::is_signed<Q>::value ? wasm_i8x16_narrow_i16x8(a, b) : wasm_u8x16_narrow_i16x8(a, b));
  }
#endif
  for (; i < n; ++i) out[i] = quantize_one<Q>(x[i], p);
}

}  // namespace

void quantize_f32_s8(const float* x, int64_t n, const PerTensorQuantization& p, int8_t* out) { quantize(x, n, p, out); }
void quantize_f32_u8(const float* x, int64_t n, const PerTensorQuantization& p, uint8_t* out) { quantize(x, n, p, out); }

FloatRange min_max_f32(const float* x, int64_t n) {
  float lo = x[0], hi = x[0];
  bool nan = false;
  int64_t i = 0;
#if defined(__wasm_simd128__)
  if (n >= 8) {
    // f32x4.min/max propagate NaN, so one NaN anywhere makes a lane NaN.
    v128_t vlo = wasm_v128_load(x), vhi = vlo;
    for (i = 4; i + 4 <= n; i += 4) {
      const v128_t v = wasm_v128_load(x + i);
      vlo = wasm_f32x4_min(vlo, v);
      vhi = wasm_f32x4_max(vhi, v);
    }
    float l[4], h[4];
    wasm_v128_store(l, vlo);
    wasm_v128_store(h, vhi);
    lo = l[0], hi = h[0];
    for (int lane = 0; lane < 4; ++lane) {
      nan = nan || l[lane] != l[lane] || h[lane] != h[lane];
      lo = l[lane] < lo ? l[lane] : lo;
      hi = h[lane] > hi ? h[lane] : hi;
    }
  }
#endif
  for (; i < n; ++i) {
    nan = nan || x[i] != x[i];
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  return {lo, hi, nan};
}

}  // namespace pt2web
