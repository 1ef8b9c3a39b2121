// quantized_decomposed::{quantize,dequantize}_per_tensor with the parameters
// as numbers (.default), as 1-element tensors (.tensor) and with the range
// as tensors too (.tensor2), as torch.ao.quantization.fx._decomposed defines
// them:
//   quantize:   clamp(round(x * inv_scale) + zero_point, qmin, qmax).to(dtype)
//               with inv_scale = 1.0 / scale in double, then read as float32
//               by the float32 multiply
//   dequantize: (q.to(out_dtype) - zero_point) * scale, in out_dtype
// quant_min/quant_max/dtype of dequantize only describe the input (checked,
// not used), as in torch.
#include "ops/quantized/affine.h"
#include "ops/quantized/quantized.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

double one_value(const OpCall& c, size_t index) {
  const Tensor& t = c.tensor(index);
  if (t.numel() != 1)
    fail(ErrorCode::BadInput, c.where(), "Expecting ", c.arg_name(index), " tensor to be one element, but received : ",
         t.numel());
  return t.item_as_double();
}

int64_t one_int(const OpCall& c, size_t index) {
  const Tensor& t = c.tensor(index);
  if (t.numel() != 1)
    fail(ErrorCode::BadInput, c.where(), "Expecting ", c.arg_name(index), " tensor to be one element, but received : ",
         t.numel());
  return t.item_as_int();
}

// The parameters in their three forms: numbers (.default), 1-element tensors
// (.tensor), and the range as tensors too (.tensor2).
enum class Form { Numbers, Tensors, Tensors2 };

struct Params {
  double scale;
  int64_t zero_point, qmin, qmax;
};

Params params(const OpCall& c, Form form) {
  if (form == Form::Numbers) return {c.double_arg(1), c.int_arg(2), c.int_arg(3), c.int_arg(4)};
  if (form == Form::Tensors) return {one_value(c, 1), one_int(c, 2), c.int_arg(3), c.int_arg(4)};
  return {one_value(c, 1), one_int(c, 2), one_int(c, 3), one_int(c, 4)};
}

// (input, scale, zero_point, quant_min, quant_max, dtype)
template <Form F>
void quantize_op(OpCall& c) {
  const auto [scale, zero_point, qmin, qmax] = params(c, F);
  const DType dtype = *c.optional_dtype(5);
  Tensor x = float32_input(c, c.tensor(0));
  check_quant_range(c, qmin, qmax, dtype);
  const float inv_scale = static_cast<float>(1.0 / scale);
  c.push(quantize_affine<float>(x.data<float>(), x.sizes(), GroupLayout{1, 1}, {inv_scale},
                                {static_cast<float>(zero_point)}, RoundOrder::BeforeZeroPoint, qmin, qmax, dtype));
}

// (input, scale, zero_point, quant_min, quant_max, dtype, *, out_dtype=None)
template <Form F>
void dequantize_op(OpCall& c) {
  const auto [scale, zero_point, qmin, qmax] = params(c, F);
  const Tensor& q = c.tensor(0);
  const DType dtype = *c.optional_dtype(5);
  if (q.dtype() != dtype)
    fail(ErrorCode::BadInput, c.where(), "Expecting input to have dtype: torch.", dtype_name(dtype), ", but got torch.",
         dtype_name(q.dtype()));
  check_quant_range(c, qmin, qmax, dtype);
  const DType out = c.optional_dtype(6).value_or(DType::Float32);
  check_compute_type(c, out);
  ZeroPoints zp;
  zp.floating = true;  // the zero point is a number subtracted from the converted values
  zp.reals = {static_cast<double>(zero_point)};
  if (out == DType::Float32) c.push(dequantize_affine<float>(q, GroupLayout{1, 1}, zp, {static_cast<float>(scale)}));
  else c.push(dequantize_affine<double>(q, GroupLayout{1, 1}, zp, {scale}));
}

}  // namespace

void register_per_tensor_ops(OpTable& t) {
  t.add("quantized_decomposed::quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, "
        "int quant_max, ScalarType dtype) -> Tensor",
        quantize_op<Form::Numbers>);
  t.add("quantized_decomposed::quantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, "
        "int quant_min, int quant_max, ScalarType dtype) -> Tensor",
        quantize_op<Form::Tensors>);
  t.add("quantized_decomposed::quantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, "
        "Tensor quant_min, Tensor quant_max, ScalarType dtype) -> Tensor",
        quantize_op<Form::Tensors2>);
  t.add("quantized_decomposed::dequantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, "
        "int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
        dequantize_op<Form::Numbers>);
  t.add("quantized_decomposed::dequantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, "
        "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
        dequantize_op<Form::Tensors>);
  t.add("quantized_decomposed::dequantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, "
        "Tensor quant_min, Tensor quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
        dequantize_op<Form::Tensors2>);
}

}  // namespace pt2web::quantized
