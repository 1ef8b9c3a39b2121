#include "kernels/int8/quantized_add.h"

#include <type_traits>

#include "kernels/int8/requantize.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace pt2web {

namespace {

template <bool kMultiply, typename Q>
void quantized_binary(const Q* __restrict a, const Q* __restrict b, int64_t n, const QuantizedAddParams& params,
                      Q* __restrict out) {
  const QuantizedAddParams p = params;  // locals: out may alias params for the compiler
  // Values beyond one step outside [qmin, qmax] clamp the same either way;
  // limiting them first keeps round_half_even exact.
  const float v_lo = p.qmin - p.out_zero_point - 1.0f, v_hi = p.qmax - p.out_zero_point + 1.0f;
  int64_t i = 0;
#if defined(__wasm_simd128__)
  // Eight at a time, the same float operations in the same order; the
  // integer is read from the bits of v + 1.5 * 2^23 (round half to even
  // without a conversion, which V8 expands into a long sequence), then
  // clamped to [qmin, qmax] in int16 lanes; NaN gives 0 as below.
  const v128_t za = wasm_i16x8_splat(static_cast<int16_t>(p.a_zero_point));
  const v128_t zb = wasm_i16x8_splat(static_cast<int16_t>(p.b_zero_point));
  const v128_t sa = wasm_f32x4_splat(p.a_scale), sb = wasm_f32x4_splat(p.b_scale);
  const v128_t lo = wasm_f32x4_splat(p.lo), hi = wasm_f32x4_splat(p.hi), inv = wasm_f32x4_splat(p.inv_out_scale);
  const v128_t vlo = wasm_f32x4_splat(v_lo), vhi = wasm_f32x4_splat(v_hi);
  const v128_t magic = wasm_f32x4_splat(12582912.0f);
  const v128_t offset = wasm_i32x4_splat(0x4B400000 - static_cast<int32_t>(p.out_zero_point));
  const v128_t qmin = wasm_i16x8_splat(static_cast<int16_t>(p.qmin)), qmax = wasm_i16x8_splat(static_cast<int16_t>(p.qmax));
  const bool in_int16 = p.qmin >= -32768.0f && p.qmax <= 32767.0f && p.a_zero_point == static_cast<int16_t>(p.a_zero_point) &&
                        p.b_zero_point == static_cast<int16_t>(p.b_zero_point);
  auto widen = [](const Q* q, v128_t zero) {
    return wasm_i16x8_sub(std::is_signed<Q>::value ? wasm_i16x8_load8x8(q) : wasm_u16x8_load8x8(q), zero);
  };
  // four lanes of y through the output quantization: the int32 values and where v was not NaN
  auto quantize4 = [&](v128_t y, v128_t& ok) {
    y = wasm_f32x4_pmin(wasm_f32x4_pmax(y, lo), hi);
    v128_t v = wasm_f32x4_mul(y, inv);
    v = wasm_f32x4_pmin(wasm_f32x4_pmax(v, vlo), vhi);
    ok = wasm_f32x4_eq(v, v);
    return wasm_i32x4_sub(wasm_f32x4_add(v, magic), offset);
  };
  for (; in_int16 && i + 8 <= n; i += 8) {
    const v128_t a16 = widen(a + i, za), b16 = widen(b + i, zb);
    v128_t ok[2], q[2];
    for (int h = 0; h < 2; ++h) {
      const v128_t a32 = h ? wasm_i32x4_extend_high_i16x8(a16) : wasm_i32x4_extend_low_i16x8(a16);
      const v128_t b32 = h ? wasm_i32x4_extend_high_i16x8(b16) : wasm_i32x4_extend_low_i16x8(b16);
      const v128_t x = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(a32), sa);
      const v128_t z = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(b32), sb);
      q[h] = quantize4(kMultiply ? wasm_f32x4_mul(x, z) : wasm_f32x4_add(x, z), ok[h]);
    }
    v128_t q16 = wasm_i16x8_min(wasm_i16x8_max(wasm_i16x8_narrow_i32x4(q[0], q[1]), qmin), qmax);
    q16 = wasm_v128_and(q16, wasm_i16x8_narrow_i32x4(ok[0], ok[1]));
    const v128_t q8 = std::is_signed<Q>::value ? wasm_i8x16_narrow_i16x8(q16, q16) : wasm_u8x16_narrow_i16x8(q16, q16);
    wasm_v128_store64_lane(out + i, q8, 0);
  }
#endif
  for (; i < n; ++i) {
    const float x = (static_cast<float>(a[i]) - p.a_zero_point) * p.a_scale;
    const float z = (static_cast<float>(b[i]) - p.b_zero_point) * p.b_scale;
    float y = kMultiply ? x * z : x + z;
    y = y < p.lo ? p.lo : y;
    y = y > p.hi ? p.hi : y;
    float v = y * p.inv_out_scale;
    v = v < v_lo ? v_lo : v;
    v = v > v_hi ? v_hi : v;
    float q = round_half_even(v) + p.out_zero_point;
    q = q < p.qmin ? p.qmin : q;
    q = q > p.qmax ? p.qmax : q;
    q = q == q ? q : 0.0f;  // NaN (an infinite scale): converting it would trap in wasm
    out[i] = static_cast<Q>(static_cast<int32_t>(q));
  }
}

}  // namespace

template <typename Q>
void quantized_add(const Q* a, const Q* b, int64_t n, const QuantizedAddParams& p, Q* out) {
  quantized_binary<false>(a, b, n, p, out);
}

template <typename Q>
void quantized_mul(const Q* a, const Q* b, int64_t n, const QuantizedAddParams& p, Q* out) {
  quantized_binary<true>(a, b, n, p, out);
}

template void quantized_add<int8_t>(const int8_t*, const int8_t*, int64_t, const QuantizedAddParams&, int8_t*);
template void quantized_add<uint8_t>(const uint8_t*, const uint8_t*, int64_t, const QuantizedAddParams&, uint8_t*);
template void quantized_mul<int8_t>(const int8_t*, const int8_t*, int64_t, const QuantizedAddParams&, int8_t*);
template void quantized_mul<uint8_t>(const uint8_t*, const uint8_t*, int64_t, const QuantizedAddParams&, uint8_t*);

}  // namespace pt2web
