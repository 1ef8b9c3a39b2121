// The residual add of PT2E quantized programs, on the int8/uint8 values:
//   out = quantize(clamp(dequantize(a) + dequantize(b), lo, hi))
// and the product (squeeze-excite's gate times its input) the same way
// with * for +,
// computed per element in float32 exactly as torch's reference graph does
// (dequantize: (float(q) - zero_point) * scale; the sum in float32; the
// clamp of a relu / relu6 / hardtanh after it (NaN stays NaN);
// quantize: clamp(round_half_even(y * inv_out_scale) + out_zero_point,
// qmin, qmax)), so the results are those of the float operators,
// without their float32 tensors. Same-sized contiguous operands; a SIMD128
// path in wasm (eight at a time, the integer read from a float's bits, no
// conversion), a plain loop otherwise and for the tail. Never allocates.
#pragma once

#include <cstdint>

namespace pt2web {

struct QuantizedAddParams {
  float a_scale = 1, a_zero_point = 0, b_scale = 1, b_zero_point = 0;
  float inv_out_scale = 1, out_zero_point = 0, qmin = -128, qmax = 127;
  float lo = -__builtin_inff(), hi = __builtin_inff();  // clamp of the float sum
};

template <typename Q>
void quantized_add(const Q* a, const Q* b, int64_t n, const QuantizedAddParams& p, Q* out);
template <typename Q>
void quantized_mul(const Q* a, const Q* b, int64_t n, const QuantizedAddParams& p, Q* out);

}  // namespace pt2web
