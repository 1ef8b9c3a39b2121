// pt2web::conv_bn_clamp: a convolution with an eval-mode batch norm folded
// into it and a clamp (relu, relu6, hardtanh) applied to its output. The
// executor (runtime/fusion.h) puts it in place of such chains when nothing
// else reads the intermediate tensors; exported graphs never name it.
//
// The batch norm and clamp run as one pass over the convolution's output,
// channel by channel (split across threads):
//   s = bn_weight / sqrt(running_var + eps),  t = bn_bias - running_mean * s
//   y = clamp(conv(x) * s + t)
// computed from the current parameter values on every call, so mutated
// buffers are always seen. Nothing is copied: an earlier version folded s
// into a scaled copy of the weights on every call, which cost a pass over
// every weight (MobileNetV2: 8.8 MB) and ran on one thread. Cases the pass
// cannot express exactly as the unfused ops would (an unbatched input, whose
// batch norm runs over another dim; parameters of the wrong size, which must
// fail with batch_norm's message; non-float32 outputs) run the original
// operators from the op table.
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/math/array_math.h"
#include "kernels/parallel/thread_pool.h"
#include "ops/conv/convolution_op.h"
#include "ops/conv/conv.h"
#include "ops/op_compose.h"
#include "ops/views.h"
#include "util/error.h"

namespace pt2web {

namespace {

struct BatchNormParams {
  Tensor weight, bias, mean, var;
  double eps = 0.0;
  bool present() const { return mean.defined(); }
};

// The single pass is exact in meaning when the output is a batched float32
// tensor whose channels (dim 1) are the weight's dim 0, and every parameter
// has one value per channel.
bool one_pass_applies(const Tensor& input, const Tensor& weight, const ConvArgs& a, const BatchNormParams& bn) {
  if (input.dtype() != DType::Float32 || weight.dtype() != DType::Float32 || a.transposed) return false;
  if (input.dim() != weight.dim()) return false;  // unbatched: batch norm would normalize dim 1 of [C, ...]
  const int64_t channels = weight.size(0);
  for (const Tensor* t : {&bn.weight, &bn.bias, &bn.mean, &bn.var})
    if (t->defined() && t->numel() != channels) return false;
  return bn.var.defined();
}

// y[N, C, ...] = clamp(y * s[c] + t[c], lo, hi) in place, s and t from the
// batch norm (in double, then rounded, as torch's CPU kernel computes them).
void batch_norm_clamp_in_place(Tensor& y, const BatchNormParams& bn, float lo, float hi) {
  const int64_t channels = y.size(1), plane = y.numel() / std::max<int64_t>(y.size(0) * channels, 1);
  std::vector<float> scale(static_cast<size_t>(channels)), shift(static_cast<size_t>(channels));
  Tensor gamma = bn.weight.defined() ? bn.weight.to(DType::Float64) : Tensor();
  Tensor beta = bn.bias.defined() ? bn.bias.to(DType::Float64) : Tensor();
  Tensor mean = bn.mean.to(DType::Float64), var = bn.var.to(DType::Float64);
  for (int64_t c = 0; c < channels; ++c) {
    const double s = (gamma.defined() ? gamma.data<double>()[c] : 1.0) / std::sqrt(var.data<double>()[c] + bn.eps);
    scale[c] = static_cast<float>(s);
    shift[c] = static_cast<float>((beta.defined() ? beta.data<double>()[c] : 0.0) - mean.data<double>()[c] * s);
  }
  float* data = y.data<float>();
  parallel::for_each_index(y.size(0) * channels, 4 * plane, [&](int64_t row) {
    const int64_t c = row % channels;
    scale_shift_clamp_f32(data + row * plane, data + row * plane, plane, scale[c], shift[c], lo, hi);
  });
}

// conv_bn_clamp(input, weight, bias, stride, padding, dilation, transposed,
//   output_padding, groups, bn_weight, bn_bias, bn_mean, bn_var, bn_eps, clamp_min, clamp_max)
void conv_bn_clamp_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& weight = c.tensor(1);
  const Tensor bias = c.optional_tensor(2);
  const int64_t dims = std::max<int64_t>(weight.dim() - 2, 1);
  const ConvArgs a = conv_args(c, dims, c.int_list(3), c.int_list(4), c.int_list(5), c.bool_arg(6), c.int_list(7),
                               c.int_arg(8));
  BatchNormParams bn{c.optional_tensor(9), c.optional_tensor(10), c.optional_tensor(11), c.optional_tensor(12),
                     c.double_arg(13)};
  const std::optional<double> lo = c.optional_double(14), hi = c.optional_double(15);
  const bool unbatched = input.dim() == weight.dim() - 1;
  const float lo_f = lo ? static_cast<float>(*lo) : -std::numeric_limits<float>::infinity();
  const float hi_f = hi ? static_cast<float>(*hi) : std::numeric_limits<float>::infinity();
  Tensor y = unbatched ? squeeze_view(convolution(c, unsqueeze_view(input, 0), weight, bias, a), {0})
                       : convolution(c, input, weight, bias, a);
  if (bn.present() && one_pass_applies(input, weight, a, bn) && y.dtype() == DType::Float32 && y.is_contiguous()) {
    batch_norm_clamp_in_place(y, bn, lo_f, hi_f);
    c.push(y);
    return;
  }
  if (bn.present())
    y = run_op1("aten::_native_batch_norm_legit_no_training.default",
                     {Value::from_tensor(y), Value::from_tensor(bn.weight), Value::from_tensor(bn.bias),
                      Value::from_tensor(bn.mean), Value::from_tensor(bn.var), Value::from_double(0.1),
                      Value::from_double(bn.eps)},
                     &c.runner());
  if (lo || hi) {
    if (y.dtype() == DType::Float32 && y.is_contiguous()) {
      clamp_f32(y.data<float>(), y.data<float>(), y.numel(), lo_f, hi_f);
    } else {
      y = run_op1("aten::clamp.default",
                       {Value::from_tensor(y), lo ? Value::from_double(*lo) : Value::none(),
                        hi ? Value::from_double(*hi) : Value::none()},
                       &c.runner());
    }
  }
  c.push(y);
}

}  // namespace

void register_fused_convolution_ops(OpTable& t) {
  t.add("pt2web::conv_bn_clamp(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
        "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, Tensor? bn_weight, "
        "Tensor? bn_bias, Tensor? bn_mean, Tensor? bn_var, float bn_eps, float? clamp_min, float? clamp_max) -> Tensor",
        conv_bn_clamp_op);
}

}  // namespace pt2web
