// pt2web::packed_pointwise_conv: a 1x1 convolution (unit stride, no
// padding, one group) whose weight was packed at load
// (kernels/gemm/gemm.h, pack_weight_f32) by the session's load-time
// preparation (runtime/load_time_packing.h); exported graphs never name it.
// Each image is the product weight [C_out, C_in] x image [C_in, H*W].
//
// Errors: Error(BadInput) for an input that is not a float32 [N, C_in, H, W]
// or [C_in, H, W] tensor, as the convolution it replaces would refuse it.
#include "kernels/gemm/gemm.h"
#include "ops/conv/conv.h"
#include "util/error.h"

namespace pt2web {

namespace {

// packed_pointwise_conv(input, packed_weight, bias, out_channels, in_channels)
void packed_pointwise_conv_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& packed = c.tensor(1);
  const Tensor bias = c.optional_tensor(2);
  const int64_t out_channels = c.int_arg(3), in_channels = c.int_arg(4);
  const bool unbatched = input.dim() == 3;
  if ((input.dim() != 3 && input.dim() != 4) || input.size(unbatched ? 0 : 1) != in_channels)
    fail(ErrorCode::BadInput, c.where(), "expected a [N, ", in_channels, ", H, W] or [", in_channels,
         ", H, W] input for a 1x1 convolution with ", in_channels, " input channels, got ",
         shape_to_string(input.sizes()));
  if (input.dtype() != DType::Float32)
    fail(ErrorCode::BadInput, c.where(), "input type (", dtype_name(input.dtype()),
         ") and weight type (float32) should be the same");
  const Tensor x = input.contiguous();
  const Tensor b = bias.defined() ? bias.contiguous() : Tensor();
  const int64_t batch = unbatched ? 1 : input.size(0);
  const int64_t h = input.size(-2), w = input.size(-1), plane = h * w;
  Tensor y = unbatched ? Tensor::empty(DType::Float32, {out_channels, h, w})
                       : Tensor::empty(DType::Float32, {batch, out_channels, h, w});
  for (int64_t n = 0; n < batch; ++n)
    gemm_packed_weight_f32(out_channels, plane, in_channels, packed.data<float>(),
                           MatrixF32{x.data<float>() + n * in_channels * plane, plane, 1},
                           y.data<float>() + n * out_channels * plane, plane, b.defined() ? b.data<float>() : nullptr);
  c.push(y);
}

}  // namespace

void register_conv_packed_pointwise_ops(OpTable& t) {
  t.add("pt2web::packed_pointwise_conv(Tensor input, Tensor packed_weight, Tensor? bias, int out_channels, "
        "int in_channels) -> Tensor",
        packed_pointwise_conv_op);
}

}  // namespace pt2web
