// The float epilogue of a quantized product: from an int32 accumulator of
// (x - x_zero_point) * (w - w_zero_point[n]) sums to what torch's reference
// graph computes after its float convolution or linear layer:
//   y = acc * (x_scale * w_scale[n]) + bias[n], clamped to [lo, hi]
//   (relu, hardtanh), then either kept as float32 or quantized:
//   q = clamp(round(y * (1 / y_scale)) + y_zero_point, qmin, qmax)
// with round-half-to-even, as quantized_decomposed.quantize_per_tensor.
// Contiguous runs of eight int8/uint8 outputs go through int8_lanes.h's
// register epilogue (same results), the rest through plain loops. Never
// allocates.
// RequantizedOutput is where a product kernel's tiles go: each tile row is
// requantized from registers straight into the output (store_requantized),
// so no int32 accumulator array is written to memory.
#pragma once

#include <cstdint>

namespace pt2web {

// Round half to even of |v| < 2^22 without a library call (std::nearbyint is
// one natively unless SSE4.1 is enabled): adding and subtracting 1.5 * 2^23
// leaves the float's integer part, rounded in the default mode.
inline float round_half_even(float v) {
  constexpr float kMagic = 12582912.0f;
  return (v + kMagic) - kMagic;
}

struct Requantization {
  const float* multiplier = nullptr;  // x_scale * w_scale[n], per output channel
  const float* bias = nullptr;        // per output channel, or null
  float lo = -__builtin_inff(), hi = __builtin_inff();
  bool quantize = false;  // false: float32 output
  float inv_out_scale = 1.0f, out_zero_point = 0.0f, qmin = -128.0f, qmax = 127.0f;
};

// `count` consecutive accumulators of output channel n, written to
// out[i * out_stride].
void requantize_s8(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, int8_t* out,
                   int64_t out_stride);
void requantize_u8(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, uint8_t* out,
                   int64_t out_stride);
void requantize_f32(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, float* out,
                    int64_t out_stride);

// The quantized value of one float y, as the epilogue computes it after its
// [lo, hi] clamp (the same operations; y may be infinite).
int32_t requantize_value(float y, const Requantization& r);

enum class QuantizedOutputKind { Int8, UInt8, Float32 };

// Element (m, n) of a product lands at data[m * ld_m + n * ld_n] (in elements
// of `kind`), requantized with output channel channel0 + m's parameters.
struct RequantizedOutput {
  const Requantization* requant = nullptr;
  QuantizedOutputKind kind = QuantizedOutputKind::Float32;
  void* data = nullptr;
  int64_t ld_m = 0, ld_n = 1, channel0 = 0;
};

// acc[0..count) are the sums of (m, n), (m, n + 1), ...
void store_requantized(const RequantizedOutput& o, int64_t m, int64_t n, const int32_t* acc, int64_t count);

}  // namespace pt2web
