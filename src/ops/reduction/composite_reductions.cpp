// Reductions that ATen defines through other operators, run through the op
// table (ops/op_compose.h): nanmean (nansum over the count of non-NaN
// elements), dist (the p-norm of the difference), renorm (slices whose
// p-norm exceeds maxnorm scaled down to it) and the two-tensor forms
// max.other / min.other (maximum / minimum).
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/reduction/reduction.h"
#include "util/error.h"

namespace pt2web {

namespace {

// nanmean(self, dim, keepdim, dtype) = nansum(...) / sum(!isnan(self), dim, keepdim)
void nanmean_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (!is_floating(x.dtype()) && !is_complex(x.dtype()))
    fail(ErrorCode::BadInput, c.where(), "nanmean(): expected input to have floating point or complex dtype but got ",
         dtype_name(x.dtype()));
  Tensor present = run_op1("aten::logical_not.default", {arg(run_op1("aten::isnan.default", {arg(x)}))});
  Tensor count = run_op1("aten::sum.dim_IntList", {arg(present), c.arg(1), c.arg(2)});
  Tensor total = run_op1("aten::nansum.default", {arg(x), c.arg(1), c.arg(2), c.arg(3)});
  c.push(run_op1("aten::div.Tensor", {arg(total), arg(count)}));
}

// dist(self, other, p) = norm(self - other, p)
void dist_op(OpCall& c) {
  Tensor difference = run_op1("aten::sub.Tensor", {c.arg(0), c.arg(1)});
  c.push(run_op1("aten::norm.Scalar", {arg(difference), c.arg(2)}));
}

// renorm(self, p, dim, maxnorm): each slice along dim whose p-norm (in
// float32, or float64 for float64 input) exceeds maxnorm is multiplied by
// maxnorm / (norm + 1e-7), a factor rounded to self's dtype.
void renorm_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const double p = c.scalar(1).to_double(), maxnorm = c.scalar(3).to_double();
  if (!is_floating(x.dtype()))
    fail(ErrorCode::BadInput, c.where(), "renorm: expected a floating point input, got ", dtype_name(x.dtype()));
  if (!(p > 0)) fail(ErrorCode::BadInput, c.where(), "renorm: non-positive-norm not supported");
  if (maxnorm < 0) fail(ErrorCode::BadInput, c.where(), "renorm: expected maxnorm to be >= 0 but got ", maxnorm);
  const int64_t dim = wrap_dim(c.int_arg(2), x.dim());
  std::vector<int64_t> others;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != dim) others.push_back(d);
  const DType acc = x.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
  Tensor norms = run_op1("aten::linalg_vector_norm.default", {arg(x), c.arg(1), arg(others), Value::from_bool(true),
                                                              Value::from_dtype(acc)});
  Tensor factor = Tensor::empty(acc, norms.sizes());
  for (int64_t i = 0; i < norms.numel(); ++i) {
    const double n = norms.item_as_double(i);
    const double f = n > maxnorm ? maxnorm / (n + 1e-7) : 1.0;
    if (acc == DType::Float32) factor.data<float>()[i] = static_cast<float>(f);
    else factor.data<double>()[i] = f;
  }
  c.push(run_op1("aten::mul.Tensor", {arg(x), arg(factor.to(x.dtype()))}));
}

void max_other_op(OpCall& c) { c.push(run_op1("aten::maximum.default", {c.arg(0), c.arg(1)})); }
void min_other_op(OpCall& c) { c.push(run_op1("aten::minimum.default", {c.arg(0), c.arg(1)})); }

}  // namespace

void register_composite_reduction_ops(OpTable& t) {
  t.add("aten::nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        nanmean_op);
  t.add("aten::dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", dist_op);
  t.add("aten::renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", renorm_op);
  t.add("aten::max.other(Tensor self, Tensor other) -> Tensor", max_other_op);
  t.add("aten::min.other(Tensor self, Tensor other) -> Tensor", min_other_op);
}

}  // namespace pt2web
