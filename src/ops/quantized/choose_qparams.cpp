// quantized_decomposed::choose_qparams(.tensor) and choose_qparams_symmetric
// (.tensor): per-tensor parameters from the input's min and max, as torch's
// determine_qparams computes them in float32 (dynamic quantization calls
// this on every activation):
//   min_neg = min(min(x), 0), max_pos = max(max(x), 0)
//   affine:    scale = max((max_pos - min_neg) / (qmax - qmin), eps)
//              zero_point = clamp(qmin - round(min_neg / scale), qmin, qmax)
//   symmetric: scale = max(max(-min_neg, max_pos) / ((qmax - qmin) / 2), eps)
//              zero_point = 128 for uint8, else 0
// Both return a 1-element float64 scale and a 1-element int64 zero point.
#include <cmath>

#include "kernels/int8/quantize.h"
#include "ops/quantized/affine.h"
#include "tensor/dispatch.h"
#include "ops/quantized/quantized.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

// torch.aminmax over all elements; torch then asserts min <= max, which
// fails for NaN inputs.
FloatRange tensor_min_max(const OpCall& c, const Tensor& input) {
  if (input.dtype() != DType::Float32)
    fail(ErrorCode::Unsupported, c.where(), "inputs of dtype ", dtype_name(input.dtype()),
         " are not supported (float32 is)");
  if (input.numel() == 0)
    fail(ErrorCode::BadInput, c.where(), "aminmax(): cannot compute aminmax over an empty dimension");
  Tensor x = input.contiguous();
  const FloatRange range = min_max_f32(x.data<float>(), x.numel());
  if (range.has_nan)
    fail(ErrorCode::BadInput, c.where(), "the input holds NaN, so its min and max are not ordered");
  return range;
}

void push_params(OpCall& c, float scale, int64_t zero_point) {
  c.push(Tensor::scalar(DType::Float64, scale).as_strided({1}, {1}, 0));
  c.push(Tensor::scalar(DType::Int64, static_cast<double>(zero_point)).as_strided({1}, {1}, 0));
}

// (input, quant_min, quant_max, eps, dtype); symmetric selects the scheme.
void choose(OpCall& c, bool symmetric) {
  const int64_t qmin = c.int_arg(1), qmax = c.int_arg(2);
  const DType dtype = *c.optional_dtype(4);
  check_quant_range(c, qmin, qmax, dtype);
  check_range_holds_zero(c, qmin, qmax);
  const float eps = static_cast<float>(c.double_arg(3));  // torch.Tensor([eps]) is float32
  const FloatRange m = tensor_min_max(c, c.tensor(0));
  const float min_neg = m.lo < 0.0f ? m.lo : 0.0f;
  const float max_pos = m.hi > 0.0f ? m.hi : 0.0f;
  if (symmetric) {
    const float bound = -min_neg > max_pos ? -min_neg : max_pos;
    float scale = bound / static_cast<float>(static_cast<double>(qmax - qmin) / 2);
    scale = scale > eps ? scale : eps;
    push_params(c, scale, dtype == DType::UInt8 ? 128 : 0);
    return;
  }
  float scale = (max_pos - min_neg) / static_cast<float>(static_cast<double>(qmax - qmin));
  scale = scale > eps ? scale : eps;
  // round in float32, then int32 arithmetic and clamp
  const int32_t rounded = convert_element<int32_t>(std::nearbyint(min_neg / scale));
  int64_t zero_point = static_cast<int32_t>(qmin - rounded);
  zero_point = zero_point < qmin ? qmin : (zero_point > qmax ? qmax : zero_point);
  push_params(c, scale, zero_point);
}

void choose_qparams_tensor_op(OpCall& c) { choose(c, false); }
void choose_qparams_symmetric_tensor_op(OpCall& c) { choose(c, true); }

}  // namespace

void register_choose_qparams_ops(OpTable& t) {
  t.add("quantized_decomposed::choose_qparams.tensor(Tensor input, int quant_min, int quant_max, float eps, "
        "ScalarType dtype) -> (Tensor, Tensor)",
        choose_qparams_tensor_op);
  t.add("quantized_decomposed::choose_qparams_symmetric.tensor(Tensor input, int quant_min, int quant_max, "
        "float eps, ScalarType dtype) -> (Tensor, Tensor)",
        choose_qparams_symmetric_tensor_op);
}

}  // namespace pt2web::quantized
