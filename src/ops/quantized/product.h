// Shared by pt2web::quantized_linear and pt2web::quantized_conv2d, the
// integer forms of dequantize -> linear / conv2d (-> clamp) (-> quantize)
// chains that runtime/quantized_fusion.h puts in place of the graph's nodes.
// Both take the same quantization arguments after their own ones:
//   Tensor input_scale, Tensor input_zero_point          (1 element each)
//   Tensor weight_scales, Tensor? weight_zero_points     (1 or out_channels elements)
//   Tensor? bias, float? clamp_min, float? clamp_max,
//   Tensor? output_scale, Tensor? output_zero_point, int output_quant_min,
//   int output_quant_max, ScalarType? output_dtype       (no output_scale: float32 output)
// and compute y = acc * (x_scale * w_scale[n]) + bias[n] from the int32
// accumulator of zero-point-shifted values (kernels/int8/requantize.h).
//
// Errors: Error(BadInput) naming the operator for inputs whose dtype or
// shape disagrees with the weight (as the float operators would reject them).
#pragma once

#include <vector>

#include "kernels/int8/requantize.h"
#include "ops/op_call.h"

namespace pt2web::quantized {

struct ProductQuantization {
  int32_t input_zero_point = 0;
  std::vector<int32_t> weight_zero_points;  // one per output channel
  std::vector<float> multiplier;            // x_scale * w_scale[n]
  Tensor bias;                              // float32, contiguous, or undefined
  Requantization requant;                   // pointers into this struct
  DType output_dtype = DType::Float32;
};

// Reads the quantization arguments starting at schema position `first`
// (input_scale) for `out_channels` output channels.
void read_product_quantization(const OpCall& c, size_t first, int64_t out_channels, ProductQuantization& q);

// The zero points must lie in their operand's range (so every shifted value
// fits in [-255, 255] and the int32 sums cannot overflow): Error(Unsupported).
void check_zero_points(const OpCall& c, const ProductQuantization& q, DType input, DType weight);

// Checks that a quantized operand holds int8 or uint8 values.
void check_int8_operand(const OpCall& c, const Tensor& t, const char* what);

// Writes `count` accumulators of channel n into `out` (of q.output_dtype) at
// element offset `at`, `stride` apart.
void store_outputs(const int32_t* acc, int64_t count, int64_t n, const ProductQuantization& q, Tensor& out,
                   int64_t at, int64_t stride);

// C[m][n] = sum_k A[m][k] * B[n][k] over int16 rows of K values, C row-major
// [M, N] (kernels/int8/dot_gemm_s16).
void dot_rows(int64_t M, int64_t N, int64_t K, const int16_t* a, const int16_t* b, int32_t* c);

// The widened (zero point subtracted) int16 rows of an int8/uint8 tensor
// with rows of `cols` values; zero_points has one value per row or one.
Tensor widened_rows(const Tensor& values, int64_t rows, int64_t cols, const std::vector<int32_t>& zero_points);

}  // namespace pt2web::quantized
