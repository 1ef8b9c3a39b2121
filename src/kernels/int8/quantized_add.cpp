#include "kernels/int8/quantized_add.h"

#include "kernels/int8/requantize.h"

namespace pt2web {

namespace {

template <bool kMultiply, typename Q>
void quantized_binary(const Q* __restrict a, const Q* __restrict b, int64_t n, const QuantizedAddParams& params,
                      Q* __restrict out) {
  const QuantizedAddParams p = params;  // locals: out may alias params for the compiler
  // Values beyond one step outside [qmin, qmax] clamp the same either way;
  // limiting them first keeps round_half_even exact.
  const float v_lo = p.qmin - p.out_zero_point - 1.0f, v_hi = p.qmax - p.out_zero_point + 1.0f;
  for (int64_t i = 0; i < n; ++i) {
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
