// Elementwise losses that ATen defines as compositions of pointwise
// operators (CompositeImplicitAutograd in native/Loss.cpp, or decomposed by
// torch/_decomp): l1, mse, smooth_l1, huber, soft_margin, kl_div,
// poisson_nll, binary_cross_entropy (with and without logits),
// hinge_embedding, margin_ranking, cosine_embedding and triplet_margin.
// Each computes ATen's elementwise formula with table operators, then
// applies the reduction enum (0 none, 1 mean, 2 sum; composite_math.h).

#include "ops/nn/composite_math.h"
#include "ops/nn/nn.h"
#include "util/error.h"

namespace pt2web {

namespace {

using namespace nn_math;

constexpr double kTwoPi = 6.28318530717958647692;

void l1_loss_op(OpCall& c) {
  c.push(apply_loss_reduction(abs(sub(c.tensor(0), c.tensor(1))), c.int_arg(2)));
}

void mse_loss_op(OpCall& c) {
  const Tensor diff = sub(c.tensor(0), c.tensor(1));
  c.push(apply_loss_reduction(mul(diff, diff), c.int_arg(2)));
}

// smooth_l1: |d| < beta ? 0.5 d^2 / beta : |d| - beta / 2 (l1 for beta 0).
void smooth_l1_loss_op(OpCall& c) {
  const double beta = c.double_arg(3);
  if (beta < 0) fail(ErrorCode::BadInput, c.where(), "smooth_l1_loss does not support negative values for beta.");
  const Tensor z = abs(sub(c.tensor(0), c.tensor(1)));
  const Tensor loss = beta == 0 ? z : where(lt(z, beta), div(mul(mul(z, z), 0.5), beta), sub(z, 0.5 * beta));
  c.push(apply_loss_reduction(loss, c.int_arg(2)));
}

// huber: |d| < delta ? 0.5 d^2 : delta (|d| - delta / 2).
void huber_loss_op(OpCall& c) {
  const double delta = c.double_arg(3);
  if (!(delta > 0)) fail(ErrorCode::BadInput, c.where(), "huber_loss does not support non-positive values for delta.");
  const Tensor z = abs(sub(c.tensor(0), c.tensor(1)));
  const Tensor loss = where(lt(z, delta), mul(mul(z, z), 0.5), mul(sub(z, 0.5 * delta), delta));
  c.push(apply_loss_reduction(loss, c.int_arg(2)));
}

// soft_margin: log(1 + exp(-x y)).
void soft_margin_loss_op(OpCall& c) {
  c.push(apply_loss_reduction(log1p(exp(mul(neg(c.tensor(0)), c.tensor(1)))), c.int_arg(2)));
}

// kl_div: exp(t) (t - x) for log targets, else xlogy(t, t) - t x.
void kl_div_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& target = c.tensor(1);
  if (!is_floating(input.dtype()) || !is_floating(target.dtype()))
    fail(ErrorCode::BadInput, c.where(), "kl_div: Integral inputs not supported.");
  const Tensor loss = c.bool_arg(3) ? mul(exp(target), sub(target, input))
                                    : sub(run_op1("aten::xlogy.Tensor", {arg(target), arg(target)}), mul(target, input));
  c.push(apply_loss_reduction(loss, c.int_arg(2)));
}

// poisson_nll: exp(x) - t x for log inputs, else x - t log(x + eps); `full`
// adds Stirling's term t log t - t + log(2 pi t) / 2 where t > 1.
void poisson_nll_loss_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& target = c.tensor(1);
  Tensor loss = c.bool_arg(2) ? sub(exp(input), mul(target, input))
                              : sub(input, mul(target, log(add(input, c.double_arg(4)))));
  if (c.bool_arg(3)) {
    const Tensor stirling =
        add(sub(mul(target, log(target)), target), mul(log(mul(target, kTwoPi)), 0.5));
    const Tensor small = run_op1("aten::le.Scalar", {arg(target), arg(1.0)});
    loss = add(loss, run_op1("aten::masked_fill.Scalar", {arg(stirling), arg(small), arg(0.0)}));
  }
  c.push(apply_loss_reduction(loss, c.int_arg(5)));
}

// binary_cross_entropy: (t - 1) max(log(1 - x), -100) - t max(log x, -100),
// times the weight; inputs outside [0, 1] (or NaN) are refused.
void binary_cross_entropy_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& target = c.tensor(1);
  const Tensor weight = c.optional_tensor(2);
  // As ATen's check (0 <= x && x <= 1), which NaN fails too.
  const Tensor inside = run_op1("aten::logical_and.default", {arg(run_op1("aten::ge.Scalar", {arg(input), arg(0.0)})),
                                                              arg(run_op1("aten::le.Scalar", {arg(input), arg(1.0)}))});
  if (run_op1("aten::all.default", {arg(inside)}).item_as_int() == 0)
    fail(ErrorCode::BadInput, c.where(), "all elements of input should be between 0 and 1");
  Tensor loss = sub(mul(sub(target, 1.0), clamp_min(log1p(neg(input)), -100.0)), mul(target, clamp_min(log(input), -100.0)));
  if (weight.defined()) loss = mul(loss, weight);
  c.push(apply_loss_reduction(loss, c.int_arg(3)));
}

// binary_cross_entropy_with_logits: (1 - t) x - w_p log_sigmoid(x), with
// w_p = (pos_weight - 1) t + 1 when pos_weight is given, times the weight.
void binary_cross_entropy_with_logits_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& target = c.tensor(1);
  const Tensor weight = c.optional_tensor(2);
  const Tensor pos_weight = c.optional_tensor(3);
  Tensor log_sigmoid = run_op1("aten::log_sigmoid.default", {arg(input)});
  if (pos_weight.defined()) log_sigmoid = mul(log_sigmoid, add(mul(sub(pos_weight, 1.0), target), 1.0));
  Tensor loss = sub(mul(rsub(target, 1.0), input), log_sigmoid);
  if (weight.defined()) loss = mul(loss, weight);
  c.push(apply_loss_reduction(loss, c.int_arg(4)));
}

// hinge_embedding: max(0, margin - x) where t != 1, plus x where t != -1.
void hinge_embedding_loss_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& target = c.tensor(1);
  const Tensor zeros = zeros_like(self);
  const Tensor margin_part = where(ne(target, 1.0), clamp_min(rsub(self, c.double_arg(2)), 0.0), zeros);
  const Tensor self_part = where(ne(target, -1.0), self, zeros);
  c.push(apply_loss_reduction(add(margin_part, self_part), c.int_arg(3)));
}

// margin_ranking: max(0, -t (x1 - x2) + margin).
void margin_ranking_loss_op(OpCall& c) {
  const Tensor loss = clamp_min(add(mul(neg(c.tensor(2)), sub(c.tensor(0), c.tensor(1))), c.double_arg(3)), 0.0);
  c.push(apply_loss_reduction(loss, c.int_arg(4)));
}

// cosine_embedding: 1 - cos where t == 1, max(0, cos - margin) where t == -1,
// cos from the sums over the last dim with ATen's 1e-12 added to each
// squared magnitude.
void cosine_embedding_loss_op(OpCall& c) {
  const Tensor& x1 = c.tensor(0);
  const Tensor& x2 = c.tensor(1);
  const Tensor& target = c.tensor(2);
  const int64_t t_dim = target.dim();
  if (t_dim > 1)
    fail(ErrorCode::BadInput, c.where(), "0D or 1D target tensor expected, multi-target not supported");
  if (t_dim == 1 && (x1.dim() != 2 || x2.dim() != 2))
    fail(ErrorCode::BadInput, c.where(), "1D target tensor expects 2D input tensors, but found inputs with sizes ",
         shape_to_string(x1.sizes()), " and ", shape_to_string(x2.sizes()), ".");
  if (t_dim == 0 && (x1.dim() != 1 || x2.dim() != 1))
    fail(ErrorCode::BadInput, c.where(), "0D target tensor expects 1D input tensors, but found inputs with sizes ",
         shape_to_string(x1.sizes()), " and ", shape_to_string(x2.sizes()), ".");
  constexpr double kEpsilon = 1e-12;
  const Tensor prod_sum = sum_dim(mul(x1, x2), t_dim);
  const Tensor mag1 = add(sum_dim(mul(x1, x1), t_dim), kEpsilon);
  const Tensor mag2 = add(sum_dim(mul(x2, x2), t_dim), kEpsilon);
  const Tensor cos = div(prod_sum, sqrt(mul(mag1, mag2)));
  const Tensor zeros = zeros_like(cos);
  const Tensor pos = where(eq(target, 1.0), rsub(cos, 1.0), zeros);
  const Tensor neg_part = where(eq(target, -1.0), clamp_min(sub(cos, c.double_arg(3)), 0.0), zeros);
  c.push(apply_loss_reduction(add(pos, neg_part), c.int_arg(4)));
}

// triplet_margin: max(0, margin + d(a, p) - d(a, n)) with pairwise
// distances; `swap` uses min(d(a, n), d(p, n)).
void triplet_margin_loss_op(OpCall& c) {
  const Tensor& anchor = c.tensor(0);
  const Tensor& positive = c.tensor(1);
  const Tensor& negative = c.tensor(2);
  if (anchor.dim() != positive.dim() || anchor.dim() != negative.dim())
    fail(ErrorCode::BadInput, c.where(),
         "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: "
         "anchor ",
         anchor.dim(), "D, positive ", positive.dim(), "D, and negative ", negative.dim(), "D inputs");
  const Value p = c.arg(4), eps = c.arg(5);
  auto distance = [&](const Tensor& a, const Tensor& b) {
    return run_op1("aten::pairwise_distance.default", {arg(a), arg(b), p, eps});
  };
  const Tensor dist_pos = distance(anchor, positive);
  Tensor dist_neg = distance(anchor, negative);
  if (c.bool_arg(6)) dist_neg = minimum(dist_neg, distance(positive, negative));
  const Tensor loss = clamp_min(sub(add(dist_pos, c.double_arg(3)), dist_neg), 0.0);
  c.push(apply_loss_reduction(loss, c.int_arg(7)));
}

}  // namespace

void register_loss_ops(OpTable& t) {
  t.add("aten::l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", l1_loss_op);
  t.add("aten::mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", mse_loss_op);
  t.add("aten::smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.) -> Tensor",
        smooth_l1_loss_op);
  t.add("aten::huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.) -> Tensor", huber_loss_op);
  t.add("aten::soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", soft_margin_loss_op);
  t.add("aten::kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) -> Tensor", kl_div_op);
  t.add("aten::poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> "
        "Tensor",
        poisson_nll_loss_op);
  t.add("aten::binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor",
        binary_cross_entropy_op);
  t.add("aten::binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? "
        "pos_weight=None, int reduction=1) -> Tensor",
        binary_cross_entropy_with_logits_op);
  t.add("aten::hinge_embedding_loss(Tensor self, Tensor target, float margin=1., int reduction=1) -> Tensor",
        hinge_embedding_loss_op);
  t.add("aten::margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> "
        "Tensor",
        margin_ranking_loss_op);
  t.add("aten::cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) "
        "-> Tensor",
        cosine_embedding_loss_op);
  t.add("aten::triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., "
        "float eps=1e-06, bool swap=False, int reduction=1) -> Tensor",
        triplet_margin_loss_op);
}

}  // namespace pt2web
