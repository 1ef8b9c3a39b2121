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
#include "ops/quantized/widened_weights.h"

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

// Where results of q.output_dtype land in `out`: element (m, n) of the
// product at out[at + m * ld_m + n * ld_n], with output channel channel0 + m.
RequantizedOutput output_sink(const ProductQuantization& q, Tensor& out, int64_t at, int64_t ld_m, int64_t ld_n,
                              int64_t channel0);

// The product of M weight rows (widened rows from row `first_row` on) with
// the N x K operand packed in `panels` (kernels/int8/dot_panels.h), each
// tile requantized into `sink`; split over threads by panels.
void packed_product(int64_t M, int64_t N, int64_t K, const WidenedWeight& w, int64_t first_row,
                    const int16_t* panels, const RequantizedOutput& sink);

}  // namespace pt2web::quantized
