// Float32 -> int8/uint8 per-tensor quantization and the min/max that dynamic
// quantization's choose_qparams reads, on plain buffers. Dynamic quantization
// runs both on every activation of every linear layer per call, so both have
// SIMD128 paths; results are the same as the scalar definitions:
//   quantize: q = clamp(round_half_even(x * inv_scale) + zero_point, qmin, qmax),
//             NaN -> 0 (the conversion torch's CPU kernel makes of a NaN)
//   min_max:  the smallest and largest element, and whether any is NaN.
// Never allocate and never throw; callers check sizes and parameters.
#pragma once

#include <cstdint>

namespace pt2web {

struct PerTensorQuantization {
  float inv_scale = 1.0f, zero_point = 0.0f, qmin = -128.0f, qmax = 127.0f;
};

void quantize_f32_s8(const float* x, int64_t n, const PerTensorQuantization& p, int8_t* out);
void quantize_f32_u8(const float* x, int64_t n, const PerTensorQuantization& p, uint8_t* out);

struct FloatRange {
  float lo = 0.0f, hi = 0.0f;
  bool has_nan = false;
};

// n >= 1.
FloatRange min_max_f32(const float* x, int64_t n);

}  // namespace pt2web
