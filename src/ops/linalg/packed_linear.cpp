// pt2web::packed_linear: a float32 linear layer whose weight was packed at
// load (kernels/gemm/gemm.h, pack_weight_f32) by the session's load-time
// preparation (runtime/load_time_packing.h); exported graphs never name it.
// All leading dims of the input are rows of one product with W^T, which
// starts from the bias.
//
// Errors: Error(BadInput) for an input that is not float32 with
// in_features in its last dim, or a bias that is not a float32
// [out_features] tensor, as the linear layer it replaces would refuse them.
#include "kernels/gemm/gemm.h"
#include "ops/linalg/linalg.h"
#include "util/error.h"

namespace pt2web {

namespace {

// packed_linear(input, packed_weight, bias, out_features, in_features)
void packed_linear_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& packed = c.tensor(1);
  const Tensor bias = c.optional_tensor(2);
  const int64_t out_features = c.int_arg(3), in_features = c.int_arg(4);
  if (input.dim() < 1 || input.size(-1) != in_features)
    fail(ErrorCode::BadInput, c.where(), "mat1 and mat2 shapes cannot be multiplied (input ",
         shape_to_string(input.sizes()), ", weight [", out_features, ", ", in_features, "])");
  if (input.dtype() != DType::Float32)
    fail(ErrorCode::BadInput, c.where(), "expected mat1 and mat2 to have the same dtype, but got: ",
         dtype_name(input.dtype()), " != float32");
  if (bias.defined() && (bias.dtype() != DType::Float32 || bias.dim() != 1 || bias.size(0) != out_features))
    fail(ErrorCode::BadInput, c.where(), "expected a float32 bias of shape [", out_features, "], got ",
         dtype_name(bias.dtype()), " ", shape_to_string(bias.sizes()));
  Shape out_shape(input.sizes().begin(), input.sizes().end() - 1);
  const int64_t rows = shape_numel(out_shape);
  out_shape.push_back(out_features);
  Tensor out = Tensor::uninitialized(DType::Float32, out_shape);  // the product writes all of it
  const Tensor x = input.contiguous();
  const Tensor b = bias.defined() ? bias.contiguous() : Tensor();
  gemm_packed_weight_t_f32(rows, out_features, in_features, MatrixF32{x.data<float>(), in_features, 1},
                           packed.data<float>(), out.data<float>(), out_features, b.defined() ? b.data<float>() : nullptr);
  c.push(out);
}

}  // namespace

void register_packed_linear_ops(OpTable& t) {
  t.add("pt2web::packed_linear(Tensor input, Tensor packed_weight, Tensor? bias, int out_features, "
        "int in_features) -> Tensor",
        packed_linear_op);
}

}  // namespace pt2web
