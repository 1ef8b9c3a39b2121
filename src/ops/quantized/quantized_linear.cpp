// pt2web::quantized_linear: a linear layer on int8 values (product.h),
//   y[..., n] = requant(sum_k (x[..., k] - x_zp) * (w[n, k] - w_zp[n]))
// One product over all leading dims: the weight rows widened to int16
// (widened_weights.h: kept between runs for a fixed weight), the activation
// rows packed into panels (kernels/int8/dot_panels.h) per call, and
// kernels/int8/dot_gemm_s16's packed product requantizing each tile into
// the output.
#include "kernels/int8/dot_gemm_s16.h"
#include "kernels/int8/dot_panels.h"
#include "ops/quantized/product.h"
#include "ops/quantized/quantized.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

// (input, weight, then the quantization arguments of product.h)
void quantized_linear_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& w = c.tensor(1);
  check_int8_operand(c, x, "input");
  check_int8_operand(c, w, "weight");
  if (w.dim() != 2 || x.dim() < 1 || x.size(-1) != w.size(1))
    fail(ErrorCode::BadInput, c.where(), "mat1 and mat2 shapes cannot be multiplied (input ",
         shape_to_string(x.sizes()), ", weight ", shape_to_string(w.sizes()), ")");
  const int64_t N = w.size(0), K = w.size(1), M = K == 0 ? 0 : x.numel() / K;
  if (K > kMaxDotK) fail(ErrorCode::Unsupported, c.where(), "more than ", kMaxDotK, " input features");
  ProductQuantization q;
  read_product_quantization(c, 2, N, q);
  check_zero_points(c, q, x.dtype(), w.dtype());
  Shape out_shape = x.sizes();
  out_shape.back() = N;
  Tensor out = Tensor::uninitialized(q.output_dtype, out_shape);
  const WidenedWeight a = widened_weight(w, N, K, q.weight_zero_points, c.bool_arg(14));
  const Tensor rows = x.contiguous();
  Tensor panels = Tensor::uninitialized(DType::Int16, {panel_values(M, K)});
  if (rows.dtype() == DType::Int8)
    pack_panels_from_rows(rows.data<int8_t>(), M, K, K, q.input_zero_point, panels.data<int16_t>());
  else
    pack_panels_from_rows(rows.data<uint8_t>(), M, K, K, q.input_zero_point, panels.data<int16_t>());
  // Product row n (output feature), column m (input row) -> out[m][n].
  packed_product(N, M, K, a, 0, panels.data<int16_t>(), output_sink(q, out, 0, 1, N, 0));
  c.push(out);
}

}  // namespace

void register_quantized_linear_ops(OpTable& t) {
  t.add("pt2web::quantized_linear(Tensor input, Tensor weight, Tensor input_scale, Tensor input_zero_point, "
        "Tensor weight_scales, Tensor? weight_zero_points, Tensor? bias, float? clamp_min, float? clamp_max, "
        "Tensor? output_scale, Tensor? output_zero_point, int output_quant_min, int output_quant_max, "
        "ScalarType? output_dtype, bool weight_fixed=False) -> Tensor",
        quantized_linear_op);
}

}  // namespace pt2web::quantized
