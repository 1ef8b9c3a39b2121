// pt2web::quantized_linear: a linear layer on int8 values (product.h),
//   y[..., n] = requant(sum_k (x[..., k] - x_zp) * (w[n, k] - w_zp[n]))
// One product over all leading dims: the weight rows are widened to int16
// once per call (the int8 weight itself is read in place, never copied for
// good), the activation rows once, and kernels/int8/dot_gemm_s16 forms the
// int32 sums, output channel by output channel so the epilogue reads one
// scale per run.
#include "kernels/int8/dot_gemm_s16.h"
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
  Tensor a = widened_rows(w, N, K, q.weight_zero_points);
  Tensor b = widened_rows(x, M, K, {q.input_zero_point});
  Tensor acc = Tensor::uninitialized(DType::Int32, {N, M});
  dot_rows(N, M, K, a.data<int16_t>(), b.data<int16_t>(), acc.data<int32_t>());
  for (int64_t n = 0; n < N; ++n) store_outputs(acc.data<int32_t>() + n * M, M, n, q, out, n, N);
  c.push(out);
}

}  // namespace

void register_quantized_linear_ops(OpTable& t) {
  t.add("pt2web::quantized_linear(Tensor input, Tensor weight, Tensor input_scale, Tensor input_zero_point, "
        "Tensor weight_scales, Tensor? weight_zero_points, Tensor? bias, float? clamp_min, float? clamp_max, "
        "Tensor? output_scale, Tensor? output_zero_point, int output_quant_min, int output_quant_max, "
        "ScalarType? output_dtype) -> Tensor",
        quantized_linear_op);
}

}  // namespace pt2web::quantized
