// Dropout in all its ATen forms: dropout, feature_dropout, alpha_dropout,
// feature_alpha_dropout (also in place), and native_dropout (output and
// mask).
//
// Not training (or p == 0, or an empty input) they return the input, and
// p == 1 multiplies it by zero (NaN stays NaN), as ATen does. Training, the
// mask is drawn from the program's RandomSource (keep with probability
// 1 - p) and the kept values are scaled by 1 / (1 - p); the feature forms
// draw one value per (batch, channel) and broadcast it; the alpha forms keep
// the self-normalising mean and variance: out = x * noise * a + b, with
// a = 1 / sqrt((alpha^2 p + 1)(1 - p)), b = (noise - 1) * alpha * a + alpha * a * p
// and alpha = 1.7580993408473766 (SELU's negative saturation). The draws
// are pt2web's, not torch's (ops/random_source.h).
//
// Errors: BadInput for p outside [0, 1], a non-floating input in training,
// or a feature form on fewer than 2 dimensions.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/nn/composite_math.h"
#include "ops/nn/nn.h"
#include "ops/op_utils.h"
#include "util/error.h"

namespace pt2web {

namespace {

using namespace nn_math;

constexpr double kAlpha = 1.7580993408473766;

void check_probability(const OpCall& c, double p) {
  if (!(p >= 0.0 && p <= 1.0))
    fail(ErrorCode::BadInput, c.where(), "dropout probability has to be between 0 and 1, but got ", p);
}

// x * 0 in x's dtype: NaN and inf become NaN, as ATen's multiply gives.
Tensor times_zero(const Tensor& x) {
  using namespace elementwise;
  return map_elements<Kinds::All, false>(
      x.dtype(), [](auto v) { return wrapping_mul(v, decltype(v)(0)); }, kernel_input(operand(x), x.dtype()));
}

// 1 with probability `keep`, else 0, in `dtype`, one per element of `sizes`.
Tensor keep_mask(const OpCall& c, DType dtype, const Shape& sizes, double keep) {
  Tensor mask = Tensor::empty(DType::Float64, sizes);
  double* values = mask.data<double>();
  RandomSource& r = c.random();
  for (int64_t i = 0; i < mask.numel(); ++i) values[i] = r.uniform() < keep ? 1.0 : 0.0;
  return mask.to(dtype, true);
}

// The noise's shape: the input's, or (N, C, 1, ...) for the feature forms.
Shape noise_shape(const OpCall& c, const Tensor& x, bool feature) {
  if (!feature) return x.sizes();
  if (x.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "Feature dropout requires at least 2 dimensions in the input");
  Shape sizes(x.sizes().size(), 1);
  sizes[0] = x.size(0);
  sizes[1] = x.size(1);
  return sizes;
}

template <bool Feature, bool Alpha, bool InPlace>
void dropout_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const double p = c.double_arg(1);
  const bool train = c.bool_arg(2);
  check_probability(c, p);
  if (p == 0.0 || !train || x.numel() == 0) {
    c.push(x);
    return;
  }
  Tensor result;
  if (p == 1.0) {
    result = times_zero(x);
  } else {
    if (!is_floating(x.dtype()))
      fail(ErrorCode::BadInput, c.where(), "dropout in training mode needs a floating input, got ",
           dtype_name(x.dtype()));
    Tensor noise = keep_mask(c, x.dtype(), noise_shape(c, x, Feature), 1.0 - p);
    if (Alpha) {
      const double a = 1.0 / std::sqrt((kAlpha * kAlpha * p + 1.0) * (1.0 - p));
      Tensor b = add(mul(sub(noise, 1.0), kAlpha * a), kAlpha * a * p);
      result = add(mul(x, mul(noise, a)), b);
    } else {
      result = mul(x, div(noise, 1.0 - p));
    }
  }
  c.push(InPlace ? elementwise::write_in_place(c, x, result) : result);
}

// native_dropout(input, p, train?) -> (output, mask). train None counts as
// training (ATen's default). The mask is bool; output = input * mask * scale.
void native_dropout_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const double p = c.double_arg(1);
  const bool train = c.arg(2).is_none() || c.bool_arg(2);
  if (x.numel() == 0) {
    c.push(x);
    c.push(Tensor::empty(DType::Bool, x.sizes()));
    return;
  }
  if (!train) {
    Tensor mask = Tensor::empty(DType::Bool, x.sizes());
    mask.copy_from(Tensor::scalar(DType::Bool, 1.0));
    c.push(x.clone());
    c.push(mask);
    return;
  }
  check_probability(c, p);
  if (!is_floating(x.dtype()))
    fail(ErrorCode::BadInput, c.where(), "native_dropout in training mode needs a floating input, got ",
         dtype_name(x.dtype()));
  const double keep = 1.0 - p;
  Tensor mask = keep_mask(c, DType::Bool, x.sizes(), keep);
  c.push(mul(mul(x, mask), keep == 0.0 ? 0.0 : 1.0 / keep));
  c.push(mask);
}

template <bool Feature, bool Alpha>
void add_dropout(OpTable& t, const std::string& name) {
  t.add("aten::" + name + "(Tensor input, float p, bool train) -> Tensor", dropout_op<Feature, Alpha, false>);
  t.add("aten::" + name + "_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropout_op<Feature, Alpha, true>);
}

}  // namespace

void register_dropout_ops(OpTable& t) {
  add_dropout<false, false>(t, "dropout");
  add_dropout<true, false>(t, "feature_dropout");
  add_dropout<false, true>(t, "alpha_dropout");
  add_dropout<true, true>(t, "feature_alpha_dropout");
  t.add("aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)", native_dropout_op);
}

}  // namespace pt2web
