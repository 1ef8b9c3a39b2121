// Arithmetic shorthands for nn operators that ATen defines as compositions
// of table operators (losses, distances): each call runs the table kernel
// through run_op (ops/op_compose.h), so dtype promotion, broadcasting and
// the checks of the called operator apply unchanged. Also ATen's loss
// reduction enum and apply_loss_reduction.
//
// Errors: whatever the called operator throws.
#pragma once

#include "ops/op_compose.h"

namespace pt2web {
namespace nn_math {

inline Tensor add(const Tensor& a, const Tensor& b) { return run_op1("aten::add.Tensor", {arg(a), arg(b)}); }
inline Tensor add(const Tensor& a, double b) { return run_op1("aten::add.Tensor", {arg(a), arg(b)}); }
inline Tensor sub(const Tensor& a, const Tensor& b) { return run_op1("aten::sub.Tensor", {arg(a), arg(b)}); }
inline Tensor sub(const Tensor& a, double b) { return run_op1("aten::sub.Tensor", {arg(a), arg(b)}); }
inline Tensor rsub(const Tensor& a, double b) { return run_op1("aten::rsub.Scalar", {arg(a), arg(b)}); }  // b - a
inline Tensor mul(const Tensor& a, const Tensor& b) { return run_op1("aten::mul.Tensor", {arg(a), arg(b)}); }
inline Tensor mul(const Tensor& a, double b) { return run_op1("aten::mul.Tensor", {arg(a), arg(b)}); }
inline Tensor div(const Tensor& a, const Tensor& b) { return run_op1("aten::div.Tensor", {arg(a), arg(b)}); }
inline Tensor div(const Tensor& a, double b) { return run_op1("aten::div.Tensor", {arg(a), arg(b)}); }
inline Tensor neg(const Tensor& a) { return run_op1("aten::neg.default", {arg(a)}); }
inline Tensor abs(const Tensor& a) { return run_op1("aten::abs.default", {arg(a)}); }
inline Tensor exp(const Tensor& a) { return run_op1("aten::exp.default", {arg(a)}); }
inline Tensor log(const Tensor& a) { return run_op1("aten::log.default", {arg(a)}); }
inline Tensor log1p(const Tensor& a) { return run_op1("aten::log1p.default", {arg(a)}); }
inline Tensor sqrt(const Tensor& a) { return run_op1("aten::sqrt.default", {arg(a)}); }
inline Tensor clamp_min(const Tensor& a, double lo) { return run_op1("aten::clamp_min.default", {arg(a), arg(lo)}); }
inline Tensor maximum(const Tensor& a, const Tensor& b) { return run_op1("aten::maximum.default", {arg(a), arg(b)}); }
inline Tensor minimum(const Tensor& a, const Tensor& b) { return run_op1("aten::minimum.default", {arg(a), arg(b)}); }
inline Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  return run_op1("aten::where.self", {arg(cond), arg(a), arg(b)});
}
inline Tensor eq(const Tensor& a, double b) { return run_op1("aten::eq.Scalar", {arg(a), arg(b)}); }
inline Tensor ne(const Tensor& a, double b) { return run_op1("aten::ne.Scalar", {arg(a), arg(b)}); }
inline Tensor lt(const Tensor& a, double b) { return run_op1("aten::lt.Scalar", {arg(a), arg(b)}); }
inline Tensor zeros_like(const Tensor& a) { return run_op1("aten::zeros_like.default", {arg(a)}); }
inline Tensor sum(const Tensor& a) { return run_op1("aten::sum.default", {arg(a)}); }
inline Tensor sum_dim(const Tensor& a, int64_t dim, bool keepdim = false) {
  return run_op1("aten::sum.dim_IntList", {arg(a), arg(std::vector<int64_t>{dim}), Value::from_bool(keepdim)});
}
inline Tensor mean(const Tensor& a) { return run_op1("aten::mean.default", {arg(a)}); }

// ATen's at::Reduction::Reduction, the int loss operators take.
enum LossReduction : int64_t { kReductionNone = 0, kReductionMean = 1, kReductionSum = 2 };

// ATen's apply_loss_reduction: mean or sum of the elementwise loss, or the
// loss itself for any other value.
inline Tensor apply_loss_reduction(const Tensor& loss, int64_t reduction) {
  if (reduction == kReductionMean) return mean(loss);
  if (reduction == kReductionSum) return sum(loss);
  return loss;
}

}  // namespace nn_math
}  // namespace pt2web
