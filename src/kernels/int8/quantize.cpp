#include "kernels/int8/quantize.h"

#include <cmath>
#include <cstring>
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
  // With an integral zero point the rounding can come from the bits of
  // x * inv_scale + 1.5 * 2^23 (limited first to one step beyond the range,
  // which clamps the same), the zero point subtracted from the magic's bits:
  // no float-to-int conversion, which must saturate and is slow in wasm.
  const float magic = 12582912.0f;
  int32_t magic_bits;
  std::memcpy(&magic_bits, &magic, sizeof magic_bits);
  const bool integral = p.zero_point == std::nearbyint(p.zero_point) && std::fabs(p.zero_point) < 65536.0f &&
                        p.qmin >= -65536.0f && p.qmax <= 65536.0f;
  const v128_t v_lo = wasm_f32x4_splat(p.qmin - p.zero_point - 1.0f), v_hi = wasm_f32x4_splat(p.qmax - p.zero_point + 1.0f);
  const v128_t magic_v = wasm_f32x4_splat(magic);
  const v128_t offset = wasm_i32x4_splat(integral ? magic_bits - static_cast<int32_t>(p.zero_point) : 0);
  const v128_t q_lo = wasm_i32x4_splat(static_cast<int32_t>(p.qmin)), q_hi = wasm_i32x4_splat(static_cast<int32_t>(p.qmax));
  auto four_bits = [&](const float* in) {
    const v128_t c = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_f32x4_mul(wasm_v128_load(in), inv), v_lo), v_hi);
    const v128_t q = wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_sub(wasm_f32x4_add(c, magic_v), offset), q_lo), q_hi);
    return wasm_v128_and(q, wasm_f32x4_eq(c, c));  // NaN -> 0
  };
  const auto store16 = [&](const v128_t a, const v128_t b, Q* o) {
    wasm_v128_store(o, std::is_signed<Q>::value ? wasm_i8x16_narrow_i16x8(a, b) : wasm_u8x16_narrow_i16x8(a, b));
  };
  if (integral) {
    for (; i + 16 <= n; i += 16)
      store16(wasm_i16x8_narrow_i32x4(four_bits(x + i), four_bits(x + i + 4)),
              wasm_i16x8_narrow_i32x4(four_bits(x + i + 8), four_bits(x + i + 12)), out + i);
  }
  for (; i + 16 <= n; i += 16)
    store16(wasm_i16x8_narrow_i32x4(four(x + i), four(x + i + 4)),
            wasm_i16x8_narrow_i32x4(four(x + i + 8), four(x + i + 12)), out + i);
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
  if (n >= 16) {
    // pmin / pmax (one minps / maxps each; a NaN element leaves the lane as
    // it was) with NaN found by x != x on the side, in four independent
    // chains of accumulators: f32x4.min / max, which propagate NaN, expand
    // into long dependent sequences in V8 and made this scan latency-bound.
    v128_t lo4[4], hi4[4], nan4 = wasm_i32x4_splat(0);
    for (int k = 0; k < 4; ++k) lo4[k] = hi4[k] = wasm_v128_load(x + 4 * k);
    for (i = 0; i + 16 <= n; i += 16)
      for (int k = 0; k < 4; ++k) {
        const v128_t v = wasm_v128_load(x + i + 4 * k);
        lo4[k] = wasm_f32x4_pmin(lo4[k], v);
        hi4[k] = wasm_f32x4_pmax(hi4[k], v);
        nan4 = wasm_v128_or(nan4, wasm_f32x4_ne(v, v));
      }
    for (; i + 4 <= n; i += 4) {
      const v128_t v = wasm_v128_load(x + i);
      lo4[0] = wasm_f32x4_pmin(lo4[0], v);
      hi4[0] = wasm_f32x4_pmax(hi4[0], v);
      nan4 = wasm_v128_or(nan4, wasm_f32x4_ne(v, v));
    }
    const v128_t vlo = wasm_f32x4_pmin(wasm_f32x4_pmin(lo4[0], lo4[1]), wasm_f32x4_pmin(lo4[2], lo4[3]));
    const v128_t vhi = wasm_f32x4_pmax(wasm_f32x4_pmax(hi4[0], hi4[1]), wasm_f32x4_pmax(hi4[2], hi4[3]));
    float l[4], h[4];
    wasm_v128_store(l, vlo);
    wasm_v128_store(h, vhi);
    nan = wasm_v128_any_true(nan4);
    lo = l[0], hi = h[0];
    for (int lane = 1; lane < 4; ++lane) {
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
