// quantized_decomposed::{quantize,dequantize}_per_channel: one (scale,
// zero_point) pair per index along `axis`, as torch's decomposition computes:
//   quantize:   clamp(round(x * (1.0 / scales)) + zero_points, qmin, qmax).to(dtype)
//               (the reciprocal is taken in the scales' dtype; the product
//               runs in the promoted dtype of input, scales and zero points)
//   dequantize: ((q - zero_points) * scales).to(out_dtype), the subtraction in
//               int64 for integer zero points, the product in the promoted dtype
// Negative axes count from the end (torch permutes with Python indexing).
#include "ops/quantized/affine.h"
#include "ops/quantized/quantized.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

// The groups of an axis: its size, repeating every product of the sizes after it.
GroupLayout axis_layout(const OpCall& c, const Tensor& input, int64_t axis, const Tensor& scales) {
  const int64_t dims = input.dim();
  if (axis >= dims || axis < -dims)
    fail(ErrorCode::BadInput, c.where(), "Expecting axis to be < ", dims, ", got ", axis);
  if (axis < 0) axis += dims;
  GroupLayout layout;
  layout.groups = input.size(axis);
  for (int64_t d = axis + 1; d < dims; ++d) layout.inner *= input.size(d);
  if (scales.dim() != 1 || scales.numel() != layout.groups)
    fail(ErrorCode::BadInput, c.where(), "scales of shape ", shape_to_string(scales.sizes()),
         " do not give one value per index of axis ", axis, " (size ", layout.groups, ")");
  return layout;
}

// (input, scales, zero_points, axis, quant_min, quant_max, dtype)
void quantize_per_channel_op(OpCall& c) {
  const Tensor x = float32_input(c, c.tensor(0));
  const Tensor& scales = c.tensor(1);
  const Tensor& zero_points = c.tensor(2);
  const int64_t qmin = c.int_arg(4), qmax = c.int_arg(5);
  const DType dtype = *c.optional_dtype(6);
  check_quant_range(c, qmin, qmax, dtype);
  GroupLayout layout = axis_layout(c, x, c.int_arg(3), scales);
  if (zero_points.numel() != layout.groups)
    fail(ErrorCode::BadInput, c.where(), "zero_points has ", zero_points.numel(), " values for ", layout.groups,
         " channels");
  c.push(quantize_groups(c, x, layout, scales, zero_points, RoundOrder::BeforeZeroPoint, qmin, qmax, dtype));
}

// (input, scales, zero_points?, axis, quant_min, quant_max, dtype, *, out_dtype=None)
void dequantize_per_channel_op(OpCall& c) {
  const Tensor& q = c.tensor(0);
  const Tensor& scales = c.tensor(1);
  const Tensor zero_points = c.optional_tensor(2);
  const int64_t qmin = c.int_arg(4), qmax = c.int_arg(5);
  const DType dtype = *c.optional_dtype(6);
  if (q.dtype() != dtype)
    fail(ErrorCode::BadInput, c.where(), "Expecting input to have dtype torch.", dtype_name(dtype),
         ", but got dtype: torch.", dtype_name(q.dtype()));
  const DType out = c.optional_dtype(7).value_or(DType::Float32);
  GroupLayout layout = axis_layout(c, q, c.int_arg(3), scales);
  check_quant_range(c, qmin, qmax, dtype);
  if (zero_points.defined() && zero_points.numel() != layout.groups)
    fail(ErrorCode::BadInput, c.where(), "zero_points has ", zero_points.numel(), " values for ", layout.groups,
         " channels");
  check_compute_type(c, out);
  c.push(dequantize_groups(c, q, layout, scales, zero_points).to(out));
}

}  // namespace

void register_per_channel_ops(OpTable& t) {
  t.add("quantized_decomposed::quantize_per_channel(Tensor input, Tensor scales, Tensor zero_points, int axis, "
        "int quant_min, int quant_max, ScalarType dtype) -> Tensor",
        quantize_per_channel_op);
  t.add("quantized_decomposed::dequantize_per_channel(Tensor input, Tensor scales, Tensor? zero_points, int axis, "
        "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
        dequantize_per_channel_op);
}

}  // namespace pt2web::quantized
