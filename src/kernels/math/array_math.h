// Elementwise float32 functions over contiguous arrays, four lanes at a
// time (kernels/math/vec4_math.h); the tail goes through the same vector
// code on a padded copy, so every element is computed the same way.
// `in` and `out` may be the same array (in-place ops); n >= 0.
#pragma once

#include <cstdint>

namespace pt2web {

void exp_f32(const float* in, float* out, int64_t n);
void tanh_f32(const float* in, float* out, int64_t n);
void sigmoid_f32(const float* in, float* out, int64_t n);
void silu_f32(const float* in, float* out, int64_t n);
// x * Phi(x) = x/2 * erfc(-x/sqrt(2)), accurate for large negative x too.
void gelu_erf_f32(const float* in, float* out, int64_t n);
// x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
void gelu_tanh_f32(const float* in, float* out, int64_t n);

// out = min(max(in, lo), hi); NaN stays NaN (torch's clamp).
void clamp_f32(const float* in, float* out, int64_t n, float lo, float hi);

// out = clamp(in * scale + shift, lo, hi) (an affine map, such as an
// eval-mode batch norm of one channel, then a clamp); on one thread.
void scale_shift_clamp_f32(const float* in, float* out, int64_t n, float scale, float shift, float lo, float hi);

// out = softmax(in) over n > 0 elements; returns log(sum(exp(in))). A row
// with a NaN gives NaNs; an all -inf row gives NaNs (callers that want
// zeros check for it first, as torch's safe softmax does).
float softmax_f32(const float* in, float* out, int64_t n);

}  // namespace pt2web
