// Activation functions: gelu (exact and tanh), silu, sigmoid, tanh, mish,
// softplus, elu/selu/celu, leaky_relu, hardtanh/relu6, hardswish,
// hardsigmoid, log_sigmoid, threshold, hard/softshrink, logit, glu and prelu,
// with ATen's in-place forms. All compute in opmath (float for 16-bit floats)
// with ATen's formulas, so results round once into the input dtype.
#include <cmath>

#include "kernels/math/array_math.h"
#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

// f(x) elementwise for activations defined on floating tensors only. Ops that
// ATen treats as "unary float" ops (sigmoid, tanh, logit) take integer
// inputs too and give float32.
template <typename F>
Tensor activation(const OpCall& c, const Tensor& x, F f, bool integers_to_float = false) {
  DType dtype = integers_to_float ? to_floating(x.dtype()) : x.dtype();
  check_kinds(c, dtype, Kinds::Floating);
  return map_elements<Kinds::Floating, false>(dtype, f, kernel_input(operand(x), dtype));
}

// activation() with a vectorized kernel (kernels/math) for float32 inputs.
template <typename F>
Tensor activation_f32(const OpCall& c, const Tensor& x, void (*kernel)(const float*, float*, int64_t), F f,
                      bool integers_to_float = false) {
  DType dtype = integers_to_float ? to_floating(x.dtype()) : x.dtype();
  check_kinds(c, dtype, Kinds::Floating);
  return map_unary_vectorized<Kinds::Floating>(dtype, f, kernel, x);
}

template <typename M>
M sigmoid_of(M x) {
  return M(1) / (M(1) + std::exp(-x));
}

template <bool InPlace>
void gelu_op(OpCall& c) {
  std::string approximate = c.string_arg(1);
  if (approximate != "none" && approximate != "tanh")
    fail(ErrorCode::BadInput, c.where(), "approximate argument must be either none or tanh.");
  bool use_tanh = approximate == "tanh";
  Tensor out = activation_f32(c, c.tensor(0), use_tanh ? gelu_tanh_f32 : gelu_erf_f32, [use_tanh](auto x) {
    using M = decltype(x);
    if (use_tanh) {
      const M beta = static_cast<M>(M_SQRT2 * M_2_SQRTPI * 0.5);  // sqrt(2 / pi)
      const M kappa = static_cast<M>(0.044715);
      M inner = beta * (x + kappa * x * x * x);
      return M(0.5) * x * (M(1) + std::tanh(inner));
    }
    return x * M(0.5) * (M(1) + std::erf(x * static_cast<M>(M_SQRT1_2)));
  });
  push_result(c, out, InPlace);
}

template <bool InPlace>
void silu_op(OpCall& c) {
  push_result(c, activation_f32(c, c.tensor(0), silu_f32, [](auto x) { return x / (decltype(x)(1) + std::exp(-x)); }),
              InPlace);
}

template <bool InPlace>
void sigmoid_op(OpCall& c) {
  push_result(c, activation_f32(c, c.tensor(0), sigmoid_f32, [](auto x) { return sigmoid_of(x); }, true), InPlace);
}

template <bool InPlace>
void tanh_op(OpCall& c) {
  push_result(c, activation_f32(c, c.tensor(0), tanh_f32, [](auto x) { return std::tanh(x); }, true), InPlace);
}

template <bool InPlace>
void mish_op(OpCall& c) {
  push_result(c, activation(c, c.tensor(0), [](auto x) { return x * std::tanh(std::log1p(std::exp(x))); }),
              InPlace);
}

// softplus = log(1 + exp(beta x)) / beta, linear above the threshold.
void softplus_op(OpCall& c) {
  double beta = c.scalar(1).to_double(), threshold = c.scalar(2).to_double();
  c.push(activation(c, c.tensor(0), [beta, threshold](auto x) {
    using M = decltype(x);
    M b = static_cast<M>(beta);
    return x * b > static_cast<M>(threshold) ? x : std::log1p(std::exp(x * b)) / b;
  }));
}

// elu(x) = scale * x for x > 0, alpha * scale * (exp(input_scale * x) - 1) otherwise.
Tensor elu(const OpCall& c, const Tensor& x, double alpha, double scale, double input_scale) {
  return activation(c, x, [=](auto v) {
    using M = decltype(v);
    M negative_coef = static_cast<M>(alpha) * static_cast<M>(scale);
    return v <= M(0) ? std::expm1(v * static_cast<M>(input_scale)) * negative_coef : v * static_cast<M>(scale);
  });
}

template <bool InPlace>
void elu_op(OpCall& c) {
  push_result(c, elu(c, c.tensor(0), c.scalar(1).to_double(), c.scalar(2).to_double(), c.scalar(3).to_double()),
              InPlace);
}

template <bool InPlace>
void selu_op(OpCall& c) {
  const double alpha = 1.6732632423543772848170429916717;
  const double scale = 1.0507009873554804934193349852946;
  push_result(c, elu(c, c.tensor(0), alpha, scale, 1.0), InPlace);
}

template <bool InPlace>
void celu_op(OpCall& c) {
  double alpha = c.scalar(1).to_double();
  if (alpha == 0.0) fail(ErrorCode::BadInput, c.where(), "ZeroDivisionError: alpha cannot be 0 for CELU");
  push_result(c, elu(c, c.tensor(0), alpha, 1.0, 1.0 / alpha), InPlace);
}

template <bool InPlace>
void leaky_relu_op(OpCall& c) {
  double slope = c.scalar(1).to_double();
  push_result(c, activation(c, c.tensor(0), [slope](auto x) {
    using M = decltype(x);
    return x > M(0) ? x : x * static_cast<M>(slope);
  }), InPlace);
}

// hardtanh = clamp(x, min_val, max_val) without type promotion: integer
// tensors take the bounds truncated to integers.
Tensor hardtanh(const OpCall& c, const Tensor& x, Scalar lo, Scalar hi, bool in_place) {
  if (x.dtype() == DType::Bool) fail(ErrorCode::BadInput, c.where(), "Bool inputs not supported for hardtanh");
  if (is_integral(x.dtype())) {
    for (Scalar* s : {&lo, &hi}) {
      s->i = s->to_int();
      s->d = static_cast<double>(s->i);
      s->kind = Scalar::Kind::Int;
    }
    if (x.dtype() == DType::UInt8 && (lo.i < 0 || hi.i < 0))
      fail(ErrorCode::BadInput, c.where(), "cannot do hardtanh on an unsigned type with negative limits");
  }
  return clamp_scalars(c, x, lo, hi, in_place);
}

template <bool InPlace>
void hardtanh_op(OpCall& c) {
  push_result(c, hardtanh(c, c.tensor(0), c.scalar(1), c.scalar(2), InPlace), InPlace);
}

template <bool InPlace>
void relu6_op(OpCall& c) {
  Scalar zero, six;
  six.i = 6;
  six.d = 6.0;
  push_result(c, hardtanh(c, c.tensor(0), zero, six, InPlace), InPlace);
}

template <bool InPlace>
void hardsigmoid_op(OpCall& c) {
  push_result(c, activation(c, c.tensor(0), [](auto x) {
    using M = decltype(x);
    return std::min(std::max(x + M(3), M(0)), M(6)) / M(6);
  }), InPlace);
}

template <bool InPlace>
void hardswish_op(OpCall& c) {
  push_result(c, activation(c, c.tensor(0), [](auto x) {
    using M = decltype(x);
    return x * std::min(std::max(x + M(3), M(0)), M(6)) / M(6);
  }), InPlace);
}

// log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)), stable for large |x|.
Tensor log_sigmoid(const OpCall& c, const Tensor& x) {
  return activation(c, x, [](auto v) {
    using M = decltype(v);
    return std::min(v, M(0)) - std::log1p(std::exp(-std::abs(v)));
  });
}

void log_sigmoid_op(OpCall& c) { c.push(log_sigmoid(c, c.tensor(0))); }

// The CPU form also returns exp(-|x|), which its backward reuses.
void log_sigmoid_forward_op(OpCall& c) {
  c.push(log_sigmoid(c, c.tensor(0)));
  c.push(activation(c, c.tensor(0), [](auto v) { return std::exp(-std::abs(v)); }));
}

// threshold(x, t, v) = v where x <= t, else x; works on integers too.
template <bool InPlace>
void threshold_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  check_kinds(c, x.dtype(), Kinds::Numeric);
  Tensor limit = kernel_input(operand(c.scalar(1)), x.dtype());
  Tensor value = kernel_input(operand(c.scalar(2)), x.dtype());
  Tensor out = map_elements<Kinds::All, false>(
      x.dtype(), [](auto v, auto t, auto r) { return v <= t ? r : v; }, kernel_input(operand(x), x.dtype()), limit,
      value);
  push_result(c, out, InPlace);
}

void hardshrink_op(OpCall& c) {
  double lambd = c.scalar(1).to_double();
  c.push(activation(c, c.tensor(0), [lambd](auto x) {
    using M = decltype(x);
    M l = static_cast<M>(lambd);
    return (x >= -l && x <= l) ? M(0) : x;
  }));
}

void softshrink_op(OpCall& c) {
  double lambd = c.scalar(1).to_double();
  c.push(activation(c, c.tensor(0), [lambd](auto x) {
    using M = decltype(x);
    M l = static_cast<M>(lambd);
    return x > l ? x - l : (x < -l ? x + l : M(0));
  }));
}

// logit(x) = log(x / (1 - x)), with x first clamped to [eps, 1 - eps] when eps is given.
template <bool InPlace>
void logit_op(OpCall& c) {
  std::optional<double> eps = c.optional_double(1);
  bool clamp = eps.has_value();
  double lo = eps.value_or(0.0), hi = 1.0 - lo;
  push_result(c, activation(c, c.tensor(0), [=](auto x) {
    using M = decltype(x);
    if (clamp) x = x < static_cast<M>(lo) ? static_cast<M>(lo) : (x > static_cast<M>(hi) ? static_cast<M>(hi) : x);
    return std::log(x / (M(1) - x));
  }, true), InPlace);
}

// glu(x, dim) = a * sigmoid(b) where a and b are the two halves of x along dim.
void glu_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "glu does not support scalars because halving size must be even");
  int64_t dim = wrap_dim(c.int_arg(1), x.dim(), c.where().c_str());
  int64_t n = x.size(dim);
  if (n % 2 != 0)
    fail(ErrorCode::BadInput, c.where(), "Halving dimension must be even, but dimension ", dim, " is size ", n);
  check_kinds(c, x.dtype(), Kinds::Floating);
  Shape half = x.sizes();
  half[dim] = n / 2;
  Tensor first = x.as_strided(half, x.strides(), x.storage_offset());
  Tensor second = x.as_strided(half, x.strides(), x.storage_offset() + (n / 2) * x.strides()[dim]);
  c.push(map_elements<Kinds::Floating, false>(
      x.dtype(), [](auto a, auto b) { return a * sigmoid_of(b); }, kernel_input(operand(first), x.dtype()),
      kernel_input(operand(second), x.dtype())));
}

// prelu's kernel: x where x > 0, weight * x elsewhere (weight broadcasts).
Tensor prelu_kernel(const OpCall& c, const Tensor& x, const Tensor& weight) {
  if (weight.dtype() != x.dtype())
    fail(ErrorCode::BadInput, c.where(), "prelu: Type promoting not supported. Got ", dtype_name(x.dtype()), " and ",
         dtype_name(weight.dtype()));
  check_kinds(c, x.dtype(), Kinds::Floating);
  return map_elements<Kinds::Floating, false>(
      x.dtype(), [](auto v, auto w) { return v > decltype(v)(0) ? v : w * v; }, kernel_input(operand(x), x.dtype()),
      kernel_input(operand(weight), x.dtype()));
}

void prelu_kernel_op(OpCall& c) { c.push(prelu_kernel(c, c.tensor(0), c.tensor(1))); }

// prelu: one weight, or one per channel (dim 1), reshaped to broadcast over x.
void prelu_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  Tensor weight = c.tensor(1);
  if (weight.dim() > 1)
    fail(ErrorCode::BadInput, c.where(), "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = ",
         weight.dim());
  if (weight.numel() != 1) {
    if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "Not allow zero-dim input tensor.");
    int64_t channels = x.dim() > 1 ? x.size(1) : 1;
    if (channels != weight.numel())
      fail(ErrorCode::BadInput, c.where(), "Mismatch of parameter numbers and input channel size. Found parameter numbers = ",
           weight.numel(), " and channel size = ", channels, ".");
  }
  if (x.dim() != weight.dim()) {
    Shape shape(static_cast<size_t>(x.dim()), 1);
    if (x.dim() > 1) shape[1] = weight.numel();
    Tensor w = weight.contiguous();
    weight = w.as_strided(shape, contiguous_strides(shape), w.storage_offset());
  }
  c.push(prelu_kernel(c, x, weight));
}

void add_pair(OpTable& t, const std::string& name, const std::string& args, KernelFn functional, KernelFn in_place) {
  t.add("aten::" + name + "(Tensor self" + args + ") -> Tensor", functional);
  t.add("aten::" + name + "_(Tensor(a!) self" + args + ") -> Tensor(a!)", in_place);
}

}  // namespace

void register_activations_ops(OpTable& t) {
  add_pair(t, "gelu", ", *, str approximate='none'", gelu_op<false>, gelu_op<true>);
  add_pair(t, "silu", "", silu_op<false>, silu_op<true>);
  add_pair(t, "sigmoid", "", sigmoid_op<false>, sigmoid_op<true>);
  add_pair(t, "tanh", "", tanh_op<false>, tanh_op<true>);
  add_pair(t, "mish", "", mish_op<false>, mish_op<true>);
  t.add("aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", softplus_op);
  add_pair(t, "elu", ", Scalar alpha=1, Scalar scale=1, Scalar input_scale=1", elu_op<false>, elu_op<true>);
  add_pair(t, "selu", "", selu_op<false>, selu_op<true>);
  add_pair(t, "celu", ", Scalar alpha=1.0", celu_op<false>, celu_op<true>);
  add_pair(t, "leaky_relu", ", Scalar negative_slope=0.01", leaky_relu_op<false>, leaky_relu_op<true>);
  add_pair(t, "hardtanh", ", Scalar min_val=-1, Scalar max_val=1", hardtanh_op<false>, hardtanh_op<true>);
  add_pair(t, "relu6", "", relu6_op<false>, relu6_op<true>);
  add_pair(t, "hardsigmoid", "", hardsigmoid_op<false>, hardsigmoid_op<true>);
  add_pair(t, "hardswish", "", hardswish_op<false>, hardswish_op<true>);
  t.add("aten::log_sigmoid(Tensor self) -> Tensor", log_sigmoid_op);
  t.add("aten::log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)", log_sigmoid_forward_op);
  add_pair(t, "threshold", ", Scalar threshold, Scalar value", threshold_op<false>, threshold_op<true>);
  t.add("aten::hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", hardshrink_op);
  t.add("aten::softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", softshrink_op);
  add_pair(t, "logit", ", float? eps=None", logit_op<false>, logit_op<true>);
  t.add("aten::glu(Tensor self, int dim=-1) -> Tensor", glu_op);
  t.add("aten::prelu(Tensor self, Tensor weight) -> Tensor", prelu_op);
  t.add("aten::_prelu_kernel(Tensor self, Tensor weight) -> Tensor", prelu_kernel_op);
}

}  // namespace pt2web
