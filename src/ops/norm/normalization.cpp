// Normalization: batch_norm and its native/legit forms, instance_norm, and the
// helpers shared with layer_norm.cpp (layer_norm, group_norm, rms_norm).
//
// Batch norm follows ATen's CPU kernel: per-channel mean and biased variance
// (accumulated in double), invstd = 1/sqrt(var + eps), out = x*alpha + beta
// with alpha = invstd*weight and beta = bias - mean*alpha. In training mode the
// running statistics move by `momentum` towards the batch mean and the
// UNBIASED batch variance, written in place into the running tensors.
#include "ops/norm/normalization.h"

#include <cmath>

#include "ops/norm/norm.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

// ---- shared helpers ---------------------------------------------------------

namespace {

template <typename T>
GroupMoments grouped_moments_typed(const T* x, int64_t blocks, int64_t inner, int64_t groups,
                                   const std::function<int64_t(int64_t)>& group_of) {
  GroupMoments m;
  m.mean.assign(groups, 0.0);
  m.var.assign(groups, 0.0);
  m.count.assign(groups, 0);
  std::vector<int64_t> owner(blocks);
  for (int64_t b = 0; b < blocks; ++b) owner[b] = group_of(b);
  // Two passes (mean, then squared deviations) as ATen's CPU kernels do,
  // which avoids the cancellation of sum-of-squares formulas.
  for (int64_t b = 0; b < blocks; ++b) {
    const T* row = x + b * inner;
    double sum = 0.0;
    for (int64_t i = 0; i < inner; ++i) sum += static_cast<double>(row[i]);
    m.mean[owner[b]] += sum;
    m.count[owner[b]] += inner;
  }
  for (int64_t g = 0; g < groups; ++g) m.mean[g] /= static_cast<double>(m.count[g]);
  for (int64_t b = 0; b < blocks; ++b) {
    const T* row = x + b * inner;
    const double mu = m.mean[owner[b]];
    double sq = 0.0;
    for (int64_t i = 0; i < inner; ++i) {
      double d = static_cast<double>(row[i]) - mu;
      sq += d * d;
    }
    m.var[owner[b]] += sq;
  }
  for (int64_t g = 0; g < groups; ++g) m.var[g] /= static_cast<double>(m.count[g]);
  return m;
}

}  // namespace

GroupMoments grouped_moments(const Tensor& x, int64_t inner, int64_t groups,
                             const std::function<int64_t(int64_t)>& group_of) {
  Tensor cx = x.contiguous();
  const int64_t blocks = inner == 0 ? 0 : cx.numel() / inner;
  GroupMoments m;
  visit_floating_dtype(cx.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    m = grouped_moments_typed<T>(cx.data<T>(), blocks, inner, groups, group_of);
  });
  return m;
}

Tensor block_affine(const Tensor& x, int64_t inner, const std::vector<double>& scale,
                    const std::vector<double>& shift) {
  Tensor cx = x.contiguous();
  Tensor out = Tensor::empty(cx.dtype(), cx.sizes());
  const int64_t blocks = inner == 0 ? 0 : cx.numel() / inner;
  visit_floating_dtype(cx.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* src = cx.data<T>();
    T* dst = out.data<T>();
    for (int64_t b = 0; b < blocks; ++b) {
      const M a = static_cast<M>(scale[b]), s = static_cast<M>(shift[b]);
      const T* row = src + b * inner;
      T* orow = dst + b * inner;
      for (int64_t i = 0; i < inner; ++i) orow[i] = static_cast<T>(static_cast<M>(row[i]) * a + s);
    }
  });
  return out;
}

std::vector<double> param_values(const OpCall& c, const Tensor& t, int64_t count, double fill, const char* name) {
  if (!t.defined()) return std::vector<double>(count, fill);
  if (t.numel() != count)
    fail(ErrorCode::BadInput, c.where(), name, " should contain ", count, " elements not ", t.numel());
  Tensor d = t.to(DType::Float64);
  const double* p = d.data<double>();
  return std::vector<double>(p, p + count);
}

Tensor tensor_from_doubles(const std::vector<double>& values, const Shape& shape, DType dtype) {
  Tensor d = Tensor::empty(DType::Float64, shape);
  std::copy(values.begin(), values.end(), d.data<double>());
  return dtype == DType::Float64 ? d : d.to(dtype);
}

DType stats_dtype(const Tensor& input, const std::vector<Tensor>& params) {
  const bool reduced = input.dtype() == DType::BFloat16 || input.dtype() == DType::Float16;
  if (!reduced) return input.dtype();
  for (const Tensor& p : params)
    if (p.defined() && p.dtype() == DType::Float32) return DType::Float32;
  return input.dtype();
}

void require_floating_input(const OpCall& c, const Tensor& input) {
  if (!is_floating(input.dtype()) || input.dtype() == DType::Float8E4M3FN || input.dtype() == DType::Float8E5M2)
    fail(ErrorCode::BadInput, c.where(), "not implemented for input of dtype ", dtype_name(input.dtype()),
         " (expected a floating point tensor)");
}

// ---- batch norm ---------------------------------------------------------------

namespace {

struct BatchNormResult {
  Tensor out, save_mean, save_invstd;
};

// ATen's VarTransform<InvStd>: a zero variance with zero eps gives 0, not inf.
double inv_std(double var, double eps) { return var == 0.0 && eps == 0.0 ? 0.0 : 1.0 / std::sqrt(var + eps); }

// Batch norm over dim 1 of `input` [N, C, *]. In training mode, defined running
// statistics are updated in place (their storage is written).
BatchNormResult batch_norm_impl(const OpCall& c, const Tensor& input, const Tensor& weight, const Tensor& bias,
                                const Tensor& running_mean, const Tensor& running_var, bool training,
                                double momentum, double eps) {
  require_floating_input(c, input);
  if (input.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "expected an input with at least 2 dims (N, C, ...), got shape ",
         shape_to_string(input.sizes()));
  const int64_t C = input.size(1);
  const int64_t inner = shape_numel(Shape(input.sizes().begin() + 2, input.sizes().end()));
  const std::vector<double> w = param_values(c, weight, C, 1.0, "weight");
  const std::vector<double> b = param_values(c, bias, C, 0.0, "bias");
  const DType param_dtype = stats_dtype(input, {weight, bias, running_mean, running_var});

  std::vector<double> mean, invstd;
  if (training) {
    GroupMoments m = grouped_moments(input, inner, C, [C](int64_t block) { return block % C; });
    mean = m.mean;
    invstd.resize(C);
    for (int64_t ch = 0; ch < C; ++ch) invstd[ch] = inv_std(m.var[ch], eps);
    if (running_mean.defined()) {
      std::vector<double> rm = param_values(c, running_mean, C, 0.0, "running_mean");
      for (int64_t ch = 0; ch < C; ++ch) rm[ch] = momentum * m.mean[ch] + (1.0 - momentum) * rm[ch];
      running_mean.copy_from(tensor_from_doubles(rm, running_mean.sizes(), DType::Float64));
    }
    if (running_var.defined()) {
      std::vector<double> rv = param_values(c, running_var, C, 1.0, "running_var");
      for (int64_t ch = 0; ch < C; ++ch) {
        const double n = static_cast<double>(m.count[ch]);
        const double unbiased = m.var[ch] * n / (n - 1.0);
        rv[ch] = momentum * unbiased + (1.0 - momentum) * rv[ch];
      }
      running_var.copy_from(tensor_from_doubles(rv, running_var.sizes(), DType::Float64));
    }
  } else {
    if (!running_mean.defined() || !running_var.defined())
      fail(ErrorCode::BadInput, c.where(), "running_mean and running_var must be defined in evaluation mode");
    mean = param_values(c, running_mean, C, 0.0, "running_mean");
    const std::vector<double> var = param_values(c, running_var, C, 1.0, "running_var");
    invstd.resize(C);
    for (int64_t ch = 0; ch < C; ++ch) invstd[ch] = 1.0 / std::sqrt(var[ch] + eps);
  }

  const int64_t blocks = input.size(0) * C;
  std::vector<double> scale(blocks), shift(blocks);
  for (int64_t blk = 0; blk < blocks; ++blk) {
    const int64_t ch = blk % C;
    scale[blk] = invstd[ch] * w[ch];
    shift[blk] = b[ch] - mean[ch] * scale[blk];
  }
  BatchNormResult r;
  r.out = block_affine(input, inner, scale, shift);
  // ATen saves the batch statistics only in training mode; evaluation returns empty tensors.
  if (training) {
    r.save_mean = tensor_from_doubles(mean, {C}, param_dtype);
    r.save_invstd = tensor_from_doubles(invstd, {C}, param_dtype);
  } else {
    r.save_mean = Tensor::empty(param_dtype, {0});
    r.save_invstd = Tensor::empty(param_dtype, {0});
  }
  return r;
}

void push_result(OpCall& c, const BatchNormResult& r) {
  c.push(r.out);
  c.push(r.save_mean);
  c.push(r.save_invstd);
}

// batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)
void batch_norm_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  Tensor weight = c.optional_tensor(1), bias = c.optional_tensor(2);
  Tensor rm = c.optional_tensor(3), rv = c.optional_tensor(4);
  const bool training = c.bool_arg(5);
  if (input.numel() == 0) {
    // ATen's composite returns an (empty) copy and leaves the running statistics alone.
    require_floating_input(c, input);
    c.push(input.clone());
    return;
  }
  c.push(batch_norm_impl(c, input, weight, bias, rm, rv, training, c.double_arg(6), c.double_arg(7)).out);
}

// native_batch_norm(input, weight, bias, running_mean?, running_var?, training, momentum, eps)
void native_batch_norm_op(OpCall& c) {
  push_result(c, batch_norm_impl(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), c.optional_tensor(3),
                                 c.optional_tensor(4), c.bool_arg(5), c.double_arg(6), c.double_arg(7)));
}

// _native_batch_norm_legit(input, weight, bias, running_mean!, running_var!, training, momentum, eps)
void legit_op(OpCall& c) {
  push_result(c, batch_norm_impl(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), c.tensor(3),
                                 c.tensor(4), c.bool_arg(5), c.double_arg(6), c.double_arg(7)));
}

// _native_batch_norm_legit.no_stats(input, weight, bias, training, momentum, eps)
void legit_no_stats_op(OpCall& c) {
  if (!c.bool_arg(3))
    fail(ErrorCode::BadInput, c.where(), "running_mean and running_var must be defined in evaluation mode");
  push_result(c, batch_norm_impl(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), Tensor(), Tensor(),
                                 true, c.double_arg(4), c.double_arg(5)));
}

// _native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var, momentum, eps)
void legit_no_training_op(OpCall& c) {
  push_result(c, batch_norm_impl(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), c.tensor(3),
                                 c.tensor(4), false, c.double_arg(5), c.double_arg(6)));
}

// _native_batch_norm_legit_functional: like the legit op but the updated
// running statistics are returned as new tensors instead of written in place.
void legit_functional_op(OpCall& c) {
  Tensor rm = c.tensor(3).clone(), rv = c.tensor(4).clone();
  push_result(c, batch_norm_impl(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), rm, rv, c.bool_arg(5),
                                 c.double_arg(6), c.double_arg(7)));
  c.push(rm);
  c.push(rv);
}

// The per-channel tensor repeated `times` times ([C] -> [times*C]); undefined stays undefined.
Tensor repeat_channels(const Tensor& t, int64_t times) {
  if (!t.defined()) return t;
  Tensor flat = reshape(t, {t.numel()});
  return expand_view(unsqueeze_view(flat, 0), {times, t.numel()}).clone();
}

// instance_norm: batch norm of the input viewed as [1, N*C, *], with the
// parameters repeated per instance; running statistics (when given) become the
// mean over the batch of the per-instance updated statistics.
void instance_norm_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  Tensor weight = c.optional_tensor(1), bias = c.optional_tensor(2);
  Tensor rm = c.optional_tensor(3), rv = c.optional_tensor(4);
  const bool use_input_stats = c.bool_arg(5);
  if (!use_input_stats && (!rm.defined() || !rv.defined()))
    fail(ErrorCode::BadInput, c.where(), "Expected running_mean and running_var to be defined when use_input_stats is false");
  if (input.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "expected an input with at least 2 dims (N, C, ...), got shape ",
         shape_to_string(input.sizes()));
  const int64_t N = input.size(0), C = input.size(1);
  Shape flat_shape = input.sizes();
  flat_shape[0] = 1;
  flat_shape[1] = N * C;
  Tensor flat = reshape(input.contiguous(), flat_shape);
  Tensor rm_rep = repeat_channels(rm, N), rv_rep = repeat_channels(rv, N);
  BatchNormResult r = batch_norm_impl(c, flat, repeat_channels(weight, N), repeat_channels(bias, N), rm_rep, rv_rep,
                                      use_input_stats, c.double_arg(6), c.double_arg(7));
  // Fold the per-instance statistics back into [C] by averaging over the batch.
  auto fold = [&](const Tensor& target, const Tensor& repeated) {
    if (!target.defined() || !use_input_stats) return;
    std::vector<double> all = param_values(c, repeated, N * C, 0.0, "running statistics");
    std::vector<double> avg(C, 0.0);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t ch = 0; ch < C; ++ch) avg[ch] += all[n * C + ch];
    for (double& v : avg) v /= static_cast<double>(N);
    target.copy_from(tensor_from_doubles(avg, target.sizes(), DType::Float64));
  };
  fold(rm, rm_rep);
  fold(rv, rv_rep);
  c.push(reshape(r.out, input.sizes()));
}

}  // namespace

void register_normalization_ops(OpTable& t) {
  t.add("aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
        "bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
        batch_norm_op);
  t.add("aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
        native_batch_norm_op);
  t.add("aten::_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, "
        "Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
        legit_op);
  t.add("aten::_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, "
        "float momentum, float eps) -> (Tensor, Tensor, Tensor)",
        legit_no_stats_op);
  t.add("aten::_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, "
        "Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
        legit_no_training_op);
  t.add("aten::_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, "
        "Tensor running_mean, Tensor running_var, bool training, float momentum, float eps) -> "
        "(Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out)",
        legit_functional_op);
  t.add("aten::instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor",
        instance_norm_op);
}

}  // namespace pt2web
