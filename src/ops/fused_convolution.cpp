// pt2web::conv_bn_clamp: a convolution with an eval-mode batch norm folded
// into it and a clamp (relu, relu6, hardtanh) applied to its output. The
// executor (runtime/fusion.h) puts it in place of such chains when nothing
// else reads the intermediate tensors; exported graphs never name it.
//
// Folding happens on every call from the current parameter values:
//   s = bn_weight / sqrt(running_var + eps)
//   weight'[oc] = weight[oc] * s[oc],  bias' = (bias - running_mean) * s + bn_bias
// which costs one pass over the weights and saves a pass over the
// activations. Cases folding cannot express exactly as the unfused ops
// would (an unbatched input, whose batch norm runs over another dim;
// parameters of the wrong size, which must fail with batch_norm's message;
// non-float32 outputs) run the original operators from the op table.
#include <cmath>
#include <limits>

#include "kernels/math/array_math.h"
#include "ops/convolution_op.h"
#include "ops/families.h"
#include "ops/registry.h"
#include "ops/views.h"
#include "util/error.h"

namespace pt2web {

namespace {

// Runs a table operator on `args` (schema defaults fill the rest) and returns its first output.
Tensor run_table_op(const char* name, std::vector<Value> args, SubgraphRunner& runner) {
  const OpEntry* entry = op_table().find(name);
  PT2WEB_CHECK(entry != nullptr, "operator ", name, " missing from the table");
  for (size_t i = args.size(); i < entry->schema.arguments.size(); ++i)
    args.push_back(*entry->schema.arguments[i].default_value);
  OpCall call(entry->schema, std::move(args), &runner);
  entry->kernel(call);
  return call.outputs.at(0).tensor;
}

struct BatchNormParams {
  Tensor weight, bias, mean, var;
  double eps = 0.0;
  bool present() const { return mean.defined(); }
};

// Folding is exact in meaning when the output is a batched float32 tensor
// whose channels (dim 1) are the weight's dim 0, and every parameter has one
// value per channel.
bool foldable(const Tensor& input, const Tensor& weight, const ConvArgs& a, const BatchNormParams& bn) {
  if (input.dtype() != DType::Float32 || weight.dtype() != DType::Float32 || a.transposed) return false;
  if (input.dim() != weight.dim()) return false;  // unbatched: batch norm would normalize dim 1 of [C, ...]
  const int64_t channels = weight.size(0);
  for (const Tensor* t : {&bn.weight, &bn.bias, &bn.mean, &bn.var})
    if (t->defined() && t->numel() != channels) return false;
  return bn.var.defined();
}

// Weight and bias with the batch norm folded in (float32, like the output).
std::pair<Tensor, Tensor> fold(const Tensor& weight, const Tensor& bias, const BatchNormParams& bn) {
  const int64_t channels = weight.size(0), per_channel = weight.numel() / std::max<int64_t>(channels, 1);
  Tensor w = weight.to(DType::Float32, true).contiguous();
  Tensor b = Tensor::empty(DType::Float32, {channels});
  Tensor gamma = bn.weight.defined() ? bn.weight.to(DType::Float64) : Tensor();
  Tensor beta = bn.bias.defined() ? bn.bias.to(DType::Float64) : Tensor();
  Tensor mean = bn.mean.to(DType::Float64), var = bn.var.to(DType::Float64);
  Tensor bias64 = bias.defined() ? bias.to(DType::Float64) : Tensor();
  float* wp = w.data<float>();
  for (int64_t oc = 0; oc < channels; ++oc) {
    const double scale = (gamma.defined() ? gamma.data<double>()[oc] : 1.0) / std::sqrt(var.data<double>()[oc] + bn.eps);
    const double shift = beta.defined() ? beta.data<double>()[oc] : 0.0;
    const double b0 = bias64.defined() ? bias64.data<double>()[oc] : 0.0;
    for (int64_t k = 0; k < per_channel; ++k) wp[oc * per_channel + k] *= static_cast<float>(scale);
    b.data<float>()[oc] = static_cast<float>((b0 - mean.data<double>()[oc]) * scale + shift);
  }
  return {w, b};
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
  auto conv = [&](const Tensor& w, const Tensor& b) {
    if (!unbatched) return convolution(c, input, w, b, a);
    return squeeze_view(convolution(c, unsqueeze_view(input, 0), w, b, a), {0});
  };
  Tensor y;
  if (bn.present() && foldable(input, weight, a, bn)) {
    auto [w, b] = fold(weight, bias, bn);
    y = conv(w, b);
  } else {
    y = conv(weight, bias);
    if (bn.present())
      y = run_table_op("aten::_native_batch_norm_legit_no_training.default",
                       {Value::from_tensor(y), Value::from_tensor(bn.weight), Value::from_tensor(bn.bias),
                        Value::from_tensor(bn.mean), Value::from_tensor(bn.var), Value::from_double(0.1),
                        Value::from_double(bn.eps)},
                       c.runner());
  }
  if (lo || hi) {
    if (y.dtype() == DType::Float32 && y.is_contiguous()) {
      clamp_f32(y.data<float>(), y.data<float>(), y.numel(),
                lo ? static_cast<float>(*lo) : -std::numeric_limits<float>::infinity(),
                hi ? static_cast<float>(*hi) : std::numeric_limits<float>::infinity());
    } else {
      y = run_table_op("aten::clamp.default",
                       {Value::from_tensor(y), lo ? Value::from_double(*lo) : Value::none(),
                        hi ? Value::from_double(*hi) : Value::none()},
                       c.runner());
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
