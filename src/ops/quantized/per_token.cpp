// quantized_decomposed per-token ops: one (scale, zero_point) pair per row of
// the last dim (a "token"), as torch's decomposition computes them:
//   choose_qparams_per_token:            scale = max(amax|x|, 1e-5) / 127, zero_point = 0 (float32 zeros)
//   choose_qparams_per_token_asymmetric: XNNPACK's rule (below), scale float64, zero_point int64
//   quantize_per_token:   clamp(round(x * (1.0 / scales) + zero_points), qmin, qmax).to(dtype)
//                         (the zero point is added before rounding here)
//   dequantize_per_token: ((q - zero_points) * scales).to(output_dtype)
#include <cfloat>
#include <cmath>

#include "ops/quantized/affine.h"
#include "tensor/dispatch.h"
#include "ops/quantized/quantized.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

GroupLayout token_layout(const OpCall& c, const Tensor& input) {
  if (input.dim() == 0) fail(ErrorCode::BadInput, c.where(), "per-token quantization needs at least one dim");
  GroupLayout layout;
  layout.inner = input.size(-1);
  layout.groups = layout.inner == 0 ? 0 : input.numel() / layout.inner;
  return layout;
}

// torch's _per_token_quant_qparam_dim_check, plus the shape the parameters
// broadcast with: one value per token, along a last dim of size 1.
void check_token_params(const OpCall& c, const Tensor& input, const Tensor& scales, const Tensor& zero_points) {
  const int64_t tokens = token_layout(c, input).groups;
  if (scales.numel() != tokens || zero_points.numel() != tokens)
    fail(ErrorCode::BadInput, c.where(), "num_tokens: ", tokens, " scales: ", shape_to_string(scales.sizes()),
         " zero_points: ", shape_to_string(zero_points.sizes()));
  for (const Tensor* t : {&scales, &zero_points})
    if (tokens > 1 && input.size(-1) > 1 && (t->dim() == 0 || t->size(-1) != 1))
      fail(ErrorCode::Unsupported, c.where(), "per-token parameters of shape ", shape_to_string(t->sizes()),
           " (expected a last dim of size 1)");
}

Shape token_param_shape(const Tensor& input) {
  Shape s = input.sizes();
  s.back() = 1;
  return s;
}

// Float32 input rows (float16 reads exactly in float32).
Tensor token_input(const OpCall& c, const Tensor& input) {
  if (input.dtype() == DType::Float16) return input.to(DType::Float32);
  if (input.dtype() != DType::Float32)
    fail(ErrorCode::Unsupported, c.where(), "per-token parameters of a ", dtype_name(input.dtype()),
         " input are not supported (float32 and float16 are)");
  return input.contiguous();
}

// (input, ScalarType dtype) -> (scales, zero_points)
void choose_qparams_per_token_op(OpCall& c) {
  const Tensor& raw = c.tensor(0);
  if (*c.optional_dtype(1) != DType::Int8)
    fail(ErrorCode::BadInput, c.where(), "unsupported dtype in choose_qparams_per_token: torch.",
         dtype_name(*c.optional_dtype(1)));
  Tensor x = token_input(c, raw);
  GroupLayout layout = token_layout(c, x);
  Tensor scales = Tensor::uninitialized(DType::Float32, token_param_shape(x));
  const float* v = x.data<float>();
  for (int64_t t = 0; t < layout.groups; ++t) {
    float m = -INFINITY;
    for (int64_t k = 0; k < layout.inner; ++k) {
      float a = std::fabs(v[t * layout.inner + k]);
      if (std::isnan(a) || a > m) m = a;
      if (std::isnan(m)) break;
    }
    m = m < 1e-5f ? 1e-5f : m;  // clamp(min=1e-5); NaN stays
    scales.data<float>()[t] = m / 127.0f;
  }
  c.push(scales);
  c.push(Tensor::empty(DType::Float32, scales.sizes()));
}

// (input, ScalarType dtype) -> (scales float64, zero_points int64), for int8 [-128, 127].
void choose_qparams_per_token_asymmetric_op(OpCall& c) {
  const Tensor& raw = c.tensor(0);
  if (raw.dtype() != DType::Float32)
    fail(ErrorCode::Unsupported, c.where(), "inputs of dtype ", dtype_name(raw.dtype()),
         " are not supported (float32 is)");
  Tensor x = raw.contiguous();
  GroupLayout layout = token_layout(c, x);
  Tensor scales = Tensor::uninitialized(DType::Float64, token_param_shape(x));
  Tensor zero_points = Tensor::uninitialized(DType::Int64, token_param_shape(x));
  const float qmin = -128.0f, qmax = 127.0f;
  const float* v = x.data<float>();
  for (int64_t t = 0; t < layout.groups; ++t) {
    float lo = INFINITY, hi = -INFINITY;
    for (int64_t k = 0; k < layout.inner; ++k) {
      const float e = v[t * layout.inner + k];
      if (std::isnan(e)) {
        lo = hi = e;
        break;
      }
      lo = e < lo ? e : lo;
      hi = e > hi ? e : hi;
    }
    const float min_neg = std::isnan(lo) ? lo : (lo < 0.0f ? lo : 0.0f);
    const float max_pos = std::isnan(hi) ? hi : (hi > 0.0f ? hi : 0.0f);
    float scale = (max_pos - min_neg) / 255.0f;
    scale = scale < FLT_EPSILON ? FLT_EPSILON : scale;
    const float descaled_min = min_neg / scale, descaled_max = max_pos / scale;
    const float from_min = qmin + descaled_min, from_max = qmax + descaled_max;
    float zp = from_min + from_max > 0.0f ? qmin - descaled_min : qmax - descaled_max;
    zp = std::nearbyint(zp < qmin ? qmin : (zp > qmax ? qmax : zp));
    scales.data<double>()[t] = scale;
    zero_points.data<int64_t>()[t] = convert_element<int64_t>(zp);
  }
  c.push(scales);
  c.push(zero_points);
}

// (input, scales, zero_points, quant_min, quant_max, dtype)
void quantize_per_token_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& scales = c.tensor(1);
  const Tensor& zero_points = c.tensor(2);
  const int64_t qmin = c.int_arg(3), qmax = c.int_arg(4);
  const DType dtype = *c.optional_dtype(5);
  check_quant_range(c, qmin, qmax, dtype);
  check_token_params(c, x, scales, zero_points);
  c.push(quantize_groups(c, x, token_layout(c, x), scales, zero_points, RoundOrder::AfterZeroPoint, qmin, qmax,
                         dtype));
}

// (input, scales, zero_points, quant_min, quant_max, dtype, output_dtype)
void dequantize_per_token_op(OpCall& c) {
  const Tensor& q = c.tensor(0);
  const Tensor& scales = c.tensor(1);
  const Tensor& zero_points = c.tensor(2);
  const DType out = *c.optional_dtype(6);
  check_compute_type(c, out);
  check_token_params(c, q, scales, zero_points);
  c.push(dequantize_groups(c, q, token_layout(c, q), scales, zero_points).to(out));
}

}  // namespace

void register_per_token_ops(OpTable& t) {
  t.add("quantized_decomposed::choose_qparams_per_token(Tensor input, ScalarType dtype) -> (Tensor, Tensor)",
        choose_qparams_per_token_op);
  t.add("quantized_decomposed::choose_qparams_per_token_asymmetric(Tensor input, ScalarType dtype) -> "
        "(Tensor, Tensor)",
        choose_qparams_per_token_asymmetric_op);
  t.add("quantized_decomposed::_choose_qparams_per_token_asymmetric_impl(Tensor input, ScalarType dtype) -> "
        "(Tensor, Tensor)",
        choose_qparams_per_token_asymmetric_op);
  t.add("quantized_decomposed::quantize_per_token(Tensor input, Tensor scales, Tensor zero_points, int quant_min, "
        "int quant_max, ScalarType dtype) -> Tensor",
        quantize_per_token_op);
  t.add("quantized_decomposed::dequantize_per_token(Tensor input, Tensor scales, Tensor zero_points, "
        "int quant_min, int quant_max, ScalarType dtype, ScalarType output_dtype) -> Tensor",
        dequantize_per_token_op);
}

}  // namespace pt2web::quantized
