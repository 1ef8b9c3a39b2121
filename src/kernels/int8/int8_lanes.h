// Four int32 lanes for the int8 kernels (dot_gemm_s16, depthwise_pairs) and the
// requantization of their accumulators without leaving the registers.
//
// Acc is a 128-bit vector: wasm SIMD128 when built with -msimd128, SSE2
// natively; kLanes says whether either is there (callers keep a plain-loop
// path otherwise). dot_add is the pairwise multiply-add of eight int16 lanes
// into four int32 lanes (a0*b0 + a1*b1, ...): i32x4.dot_i16x8_s / pmaddwd.
//
// LaneEpilogue holds requantize.h's parameters of one output channel splat
// across the lanes; store8_requantized runs eight accumulators through the
// same float operations as the scalar requantize_s8 / requantize_u8, in the
// same order (the min/max forms of each clamp behave alike on NaN), so its
// results are identical, and stores the eight int8 / uint8 values.
// Header-only, never allocates, never throws.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/int8/requantize.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pt2web::int8_lanes {

#if defined(__wasm_simd128__)
constexpr bool kLanes = true;
using Acc = v128_t;
using Floats = v128_t;
inline Acc acc_zero() { return wasm_i32x4_splat(0); }
inline Acc load8(const int16_t* p) { return wasm_v128_load(p); }
inline Acc dot_add(Acc acc, Acc a, Acc b) { return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(a, b)); }
inline Acc dot(Acc a, Acc b) { return wasm_i32x4_dot_i16x8(a, b); }
inline Acc add32(Acc a, Acc b) { return wasm_i32x4_add(a, b); }
inline Acc splat_pair(int32_t pair) { return wasm_i32x4_splat(pair); }
inline void store4(int32_t* p, Acc v) { wasm_v128_store(p, v); }
inline Floats splat_f(float v) { return wasm_f32x4_splat(v); }
inline Floats to_float(Acc v) { return wasm_f32x4_convert_i32x4(v); }
inline Floats mul_add(Floats a, Floats m, Floats b) { return wasm_f32x4_add(wasm_f32x4_mul(a, m), b); }
inline Floats mul_f(Floats a, Floats b) { return wasm_f32x4_mul(a, b); }
inline Floats add_f(Floats a, Floats b) { return wasm_f32x4_add(a, b); }
inline Floats sub_f(Floats a, Floats b) { return wasm_f32x4_sub(a, b); }
// v < lo ? lo : v and v > hi ? hi : v
inline Floats clamp_f(Floats v, Floats lo, Floats hi) { return wasm_f32x4_pmin(wasm_f32x4_pmax(v, lo), hi); }
inline Floats nan_to_zero(Floats v) { return wasm_v128_and(v, wasm_f32x4_eq(v, v)); }
inline Acc truncate(Floats v) { return wasm_i32x4_trunc_sat_f32x4(v); }
// The int32 lanes of a float vector's bits minus `offset`.
inline Acc bits_minus(Floats v, Acc offset) { return wasm_i32x4_sub(v, offset); }
inline Floats load_f(const float* p) { return wasm_v128_load(p); }
inline void store_f(float* p, Floats v) { wasm_v128_store(p, v); }
// rows r0..r3 become columns
inline void transpose4(Acc& r0, Acc& r1, Acc& r2, Acc& r3) {
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  const v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  r0 = wasm_i64x2_shuffle(t0, t1, 0, 2);
  r1 = wasm_i64x2_shuffle(t0, t1, 1, 3);
  r2 = wasm_i64x2_shuffle(t2, t3, 0, 2);
  r3 = wasm_i64x2_shuffle(t2, t3, 1, 3);
}
inline Acc splat_i32(int32_t v) { return wasm_i32x4_splat(v); }
inline Acc narrow_clamp16(Acc lo, Acc hi, Acc min16, Acc max16) {
  return wasm_i16x8_min(wasm_i16x8_max(wasm_i16x8_narrow_i32x4(lo, hi), min16), max16);
}
template <typename Q>
inline void store8_from16(Acc i16, Q* out) {
  const v128_t i8 = std::is_signed<Q>::value ? wasm_i8x16_narrow_i16x8(i16, i16) : wasm_u8x16_narrow_i16x8(i16, i16);
  wasm_v128_store64_lane(out, i8, 0);
}
// Eight int8 / uint8 values widened to int16 lanes minus zero_point (in
// every lane of `zero`), and the interleaving of two such vectors:
// (a0, b0, a1, b1, a2, b2, a3, b3) and (a4, b4, ..., a7, b7).
inline Acc splat16(int32_t v) { return wasm_i16x8_splat(static_cast<int16_t>(v)); }
inline Acc load8_widened(const int8_t* p, Acc zero) { return wasm_i16x8_sub(wasm_i16x8_load8x8(p), zero); }
inline Acc load8_widened(const uint8_t* p, Acc zero) { return wasm_i16x8_sub(wasm_u16x8_load8x8(p), zero); }
inline Acc interleave_low16(Acc a, Acc b) { return wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11); }
inline Acc interleave_high16(Acc a, Acc b) { return wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15); }
inline void store_s16(int16_t* p, Acc v) { wasm_v128_store(p, v); }
#elif defined(__SSE2__)
constexpr bool kLanes = true;
using Acc = __m128i;
using Floats = __m128;
inline Acc acc_zero() { return _mm_setzero_si128(); }
inline Acc load8(const int16_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline Acc dot_add(Acc acc, Acc a, Acc b) { return _mm_add_epi32(acc, _mm_madd_epi16(a, b)); }
inline Acc dot(Acc a, Acc b) { return _mm_madd_epi16(a, b); }
inline Acc add32(Acc a, Acc b) { return _mm_add_epi32(a, b); }
inline Acc splat_pair(int32_t pair) { return _mm_set1_epi32(pair); }
inline void store4(int32_t* p, Acc v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline Floats splat_f(float v) { return _mm_set1_ps(v); }
inline Floats to_float(Acc v) { return _mm_cvtepi32_ps(v); }
inline Floats mul_add(Floats a, Floats m, Floats b) { return _mm_add_ps(_mm_mul_ps(a, m), b); }
inline Floats mul_f(Floats a, Floats b) { return _mm_mul_ps(a, b); }
inline Floats add_f(Floats a, Floats b) { return _mm_add_ps(a, b); }
inline Floats sub_f(Floats a, Floats b) { return _mm_sub_ps(a, b); }
// maxps(lo, v) is lo > v ? lo : v, minps(hi, v) is hi < v ? hi : v: NaN stays
inline Floats clamp_f(Floats v, Floats lo, Floats hi) { return _mm_min_ps(hi, _mm_max_ps(lo, v)); }
inline Floats nan_to_zero(Floats v) { return _mm_and_ps(v, _mm_cmpeq_ps(v, v)); }
inline Acc truncate(Floats v) { return _mm_cvttps_epi32(v); }
inline Acc bits_minus(Floats v, Acc offset) { return _mm_sub_epi32(_mm_castps_si128(v), offset); }
inline Floats load_f(const float* p) { return _mm_loadu_ps(p); }
inline void store_f(float* p, Floats v) { _mm_storeu_ps(p, v); }
inline void transpose4(Acc& r0, Acc& r1, Acc& r2, Acc& r3) {
  const __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
  const __m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
  r0 = _mm_unpacklo_epi64(t0, t1);
  r1 = _mm_unpackhi_epi64(t0, t1);
  r2 = _mm_unpacklo_epi64(t2, t3);
  r3 = _mm_unpackhi_epi64(t2, t3);
}
inline Acc splat_i32(int32_t v) { return _mm_set1_epi32(v); }
inline Acc narrow_clamp16(Acc lo, Acc hi, Acc min16, Acc max16) {
  return _mm_min_epi16(_mm_max_epi16(_mm_packs_epi32(lo, hi), min16), max16);
}
template <typename Q>
inline void store8_from16(Acc i16, Q* out) {
  const __m128i i8 = std::is_signed<Q>::value ? _mm_packs_epi16(i16, i16) : _mm_packus_epi16(i16, i16);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), i8);
}
inline Acc splat16(int32_t v) { return _mm_set1_epi16(static_cast<int16_t>(v)); }
inline Acc load8_widened(const int8_t* p, Acc zero) {
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return _mm_sub_epi16(_mm_srai_epi16(_mm_unpacklo_epi8(bytes, bytes), 8), zero);
}
inline Acc load8_widened(const uint8_t* p, Acc zero) {
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return _mm_sub_epi16(_mm_unpacklo_epi8(bytes, _mm_setzero_si128()), zero);
}
inline Acc interleave_low16(Acc a, Acc b) { return _mm_unpacklo_epi16(a, b); }
inline Acc interleave_high16(Acc a, Acc b) { return _mm_unpackhi_epi16(a, b); }
inline void store_s16(int16_t* p, Acc v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
#else
constexpr bool kLanes = false;
#endif

#if defined(__wasm_simd128__) || defined(__SSE2__)
inline int32_t lanes_sum(Acc v) {
  alignas(16) int32_t lanes[4];
  store4(lanes, v);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

// Requantization of one output channel. In the usual case (finite
// multiplier and bias, a positive finite 1 / out_scale, [qmin, qmax] inside
// the output type) y = acc * m + b is never NaN and quantization is
// monotonic, so clamping y to [lo, hi] first equals clamping its quantized
// value to [q(lo), q(hi)] after: the float part shrinks to
// round(y / scale) + zp, read from the bits of v + 1.5 * 2^23 (v limited to
// [v_lo, v_hi]: its integer part, rounded half to even, is in the low
// mantissa bits; no float-to-int conversion, which is slow in wasm because
// it must saturate), and the clamps become one integer min/max on eight
// values. Otherwise every step runs as in the scalar epilogue.
struct LaneEpilogue {
  bool folded = false;
  Floats m, b, inv, zp, v_lo, v_hi;
  Floats y_lo, y_hi, q_lo, q_hi;  // the general form's clamps
  Acc min16, max16;               // the folded form's q(lo), q(hi); else no limit
  Acc magic_minus_zp;             // the folded form's bits(1.5 * 2^23) - zp

  LaneEpilogue() = default;
  LaneEpilogue(const Requantization& r, int64_t n, bool signed_output) {
    const float mf = r.multiplier[n], bf = r.bias ? r.bias[n] : 0.0f;
    m = splat_f(mf);
    b = splat_f(bf);
    inv = splat_f(r.inv_out_scale);
    zp = splat_f(r.out_zero_point);
    // as the scalar epilogue: values beyond one step outside [qmin, qmax]
    // clamp the same either way, and limiting them keeps the rounding exact
    v_lo = splat_f(r.qmin - r.out_zero_point - 1.0f);
    v_hi = splat_f(r.qmax - r.out_zero_point + 1.0f);
    y_lo = splat_f(r.lo);
    y_hi = splat_f(r.hi);
    q_lo = splat_f(r.qmin);
    q_hi = splat_f(r.qmax);
    const float type_min = signed_output ? -128.0f : 0.0f, type_max = signed_output ? 127.0f : 255.0f;
    // |acc| <= 2^31: |acc * m + b| stays finite
    folded = std::fabs(mf) < 1e29f && std::fabs(bf) < 1e37f && r.inv_out_scale > 0.0f &&
             r.inv_out_scale < __builtin_inff() && r.qmin >= type_min && r.qmax <= type_max && r.lo == r.lo && r.hi == r.hi &&
             r.out_zero_point == std::nearbyint(r.out_zero_point) && std::fabs(r.out_zero_point) < 65536.0f;
    const float magic = 12582912.0f;
    int32_t magic_bits;
    std::memcpy(&magic_bits, &magic, sizeof magic_bits);
    magic_minus_zp = splat_i32(folded ? magic_bits - static_cast<int32_t>(r.out_zero_point) : 0);
    min16 = splat16(folded ? requantize_value(r.lo, r) : -32768);
    max16 = splat16(folded ? requantize_value(r.hi, r) : 32767);
  }

  Acc general(Acc acc) const {
    const Floats magic = splat_f(12582912.0f);
    const Floats y = clamp_f(mul_add(to_float(acc), m, b), y_lo, y_hi);
    const Floats v = clamp_f(mul_f(y, inv), v_lo, v_hi);
    const Floats q = clamp_f(add_f(sub_f(add_f(v, magic), magic), zp), q_lo, q_hi);
    return truncate(nan_to_zero(q));
  }
};

// Eight accumulators (lo: outputs 0-3, hi: 4-7) of one channel into out[0..8).
template <typename Q>
inline void store8_requantized(Acc lo, Acc hi, const LaneEpilogue& e, Q* out) {
  if (e.folded) {
    const Floats magic = splat_f(12582912.0f);
    const Floats vlo = clamp_f(mul_f(mul_add(to_float(lo), e.m, e.b), e.inv), e.v_lo, e.v_hi);
    const Floats vhi = clamp_f(mul_f(mul_add(to_float(hi), e.m, e.b), e.inv), e.v_lo, e.v_hi);
    const Acc qlo = bits_minus(add_f(vlo, magic), e.magic_minus_zp);
    const Acc qhi = bits_minus(add_f(vhi, magic), e.magic_minus_zp);
    store8_from16(narrow_clamp16(qlo, qhi, e.min16, e.max16), out);
  } else {
    store8_from16(narrow_clamp16(e.general(lo), e.general(hi), e.min16, e.max16), out);
  }
}

// The first `count` (at most eight) of them.
template <typename Q>
inline void store_requantized_lanes(Acc lo, Acc hi, const LaneEpilogue& e, Q* out, int64_t count) {
  if (count == 8) return store8_requantized(lo, hi, e, out);
  Q lanes[8];
  store8_requantized(lo, hi, e, lanes);
  std::memcpy(out, lanes, static_cast<size_t>(count) * sizeof(Q));
}
#endif

}  // namespace pt2web::int8_lanes
