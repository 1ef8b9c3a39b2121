#include "kernels/int8/requantize.h"

#include <cmath>
#include <type_traits>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace pt2web {

namespace {

inline float epilogue(int32_t acc, float multiplier, float bias, const Requantization& r) {
  float y = static_cast<float>(acc) * multiplier + bias;
  return y < r.lo ? r.lo : (y > r.hi ? r.hi : y);
}

// One value through the epilogue (the parameters in locals, min/max forms).
struct Epilogue {
  float m, b, y_lo, y_hi, inv, zp, q_lo, q_hi, v_lo, v_hi;

  Epilogue(const Requantization& r, int64_t n)
      : m(r.multiplier[n]), b(r.bias ? r.bias[n] : 0.0f), y_lo(r.lo), y_hi(r.hi), inv(r.inv_out_scale),
        zp(r.out_zero_point), q_lo(r.qmin), q_hi(r.qmax),
        // Values beyond one step outside [qmin, qmax] clamp the same either
        // way; limiting them first keeps round_half_even exact.
        v_lo(r.qmin - r.out_zero_point - 1.0f), v_hi(r.qmax - r.out_zero_point + 1.0f) {}

  int32_t operator()(int32_t acc) const {
    float y = static_cast<float>(acc) * m + b;
    y = y < y_lo ? y_lo : y;
    y = y > y_hi ? y_hi : y;
    float v = y * inv;
    v = v < v_lo ? v_lo : v;
    v = v > v_hi ? v_hi : v;
    float q = round_half_even(v) + zp;
    q = q < q_lo ? q_lo : q;
    q = q > q_hi ? q_hi : q;
    q = q == q ? q : 0.0f;  // NaN (a NaN bias): converting it would trap in wasm
    return static_cast<int32_t>(q);
  }
};

#if defined(__wasm_simd128__)
// Four consecutive outputs of channel n through the same float operations
// as Epilogue, lane by lane (pmin/pmax are the scalar `a < b ? b : a`
// forms, so NaN lanes behave alike), narrowed to int8/uint8 and stored as
// one 32-bit lane. Scalar code would spend more on this than the products
// of a small-K tile.
template <typename Q>
inline void requantize4(const int32_t* acc, const Epilogue& e, Q* out) {
  const v128_t magic = wasm_f32x4_splat(12582912.0f);
  v128_t y = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_v128_load(acc)), wasm_f32x4_splat(e.m)),
                            wasm_f32x4_splat(e.b));
  y = wasm_f32x4_pmin(wasm_f32x4_pmax(y, wasm_f32x4_splat(e.y_lo)), wasm_f32x4_splat(e.y_hi));
  v128_t v = wasm_f32x4_mul(y, wasm_f32x4_splat(e.inv));
  v = wasm_f32x4_pmin(wasm_f32x4_pmax(v, wasm_f32x4_splat(e.v_lo)), wasm_f32x4_splat(e.v_hi));
  v128_t q = wasm_f32x4_add(wasm_f32x4_sub(wasm_f32x4_add(v, magic), magic), wasm_f32x4_splat(e.zp));
  q = wasm_f32x4_pmin(wasm_f32x4_pmax(q, wasm_f32x4_splat(e.q_lo)), wasm_f32x4_splat(e.q_hi));
  q = wasm_v128_and(q, wasm_f32x4_eq(q, q));  // NaN -> 0
  const v128_t i32 = wasm_i32x4_trunc_sat_f32x4(q);
  const v128_t i16 = wasm_i16x8_narrow_i32x4(i32, i32);
  const v128_t i8 = std::is_signed<Q>::value ? wasm_i8x16_narrow_i16x8(i16, i16) : wasm_u8x16_narrow_i16x8(i16, i16);
  wasm_v128_store32_lane(out, i8, 0);
}
#endif

template <typename Q>
void requantize(const int32_t* __restrict acc, int64_t count, int64_t n, const Requantization& r,
                Q* __restrict out, int64_t out_stride) {
  const Epilogue e(r, n);
  int64_t i = 0;
#if defined(__wasm_simd128__)
  if (out_stride == 1)
    for (; i + 4 <= count; i += 4) requantize4(acc + i, e, out + i);
#endif
  for (; i < count; ++i) out[i * out_stride] = static_cast<Q>(e(acc[i]));
}

}  // namespace

void requantize_s8(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, int8_t* out,
                   int64_t out_stride) {
  requantize(acc, count, n, r, out, out_stride);
}

void requantize_u8(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, uint8_t* out,
                   int64_t out_stride) {
  requantize(acc, count, n, r, out, out_stride);
}

void requantize_f32(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, float* out,
                    int64_t out_stride) {
  const float m = r.multiplier[n], b = r.bias ? r.bias[n] : 0.0f;
  for (int64_t i = 0; i < count; ++i) out[i * out_stride] = epilogue(acc[i], m, b, r);
}

void store_requantized(const RequantizedOutput& o, int64_t m, int64_t n, const int32_t* acc, int64_t count) {
  const int64_t channel = o.channel0 + m, at = m * o.ld_m + n * o.ld_n;
  switch (o.kind) {
    case QuantizedOutputKind::Int8:
      requantize_s8(acc, count, channel, *o.requant, static_cast<int8_t*>(o.data) + at, o.ld_n);
      break;
    case QuantizedOutputKind::UInt8:
      requantize_u8(acc, count, channel, *o.requant, static_cast<uint8_t*>(o.data) + at, o.ld_n);
      break;
    case QuantizedOutputKind::Float32:
      requantize_f32(acc, count, channel, *o.requant, static_cast<float*>(o.data) + at, o.ld_n);
      break;
  }
}

}  // namespace pt2web
