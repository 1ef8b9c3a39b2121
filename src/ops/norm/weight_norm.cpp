// Weight normalization as ATen defines it (WeightNorm.cpp): w = v * (g /
// norm_except_dim(v, 2, dim)), where norm_except_dim takes the 2-norm over
// every dim but `dim` and keeps them as size 1 (dim -1: over all of v, a
// 0-d norm). _weight_norm_interface also returns that norm.
#include "ops/norm/norm.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"

namespace pt2web {

namespace {

Tensor norm_except_dim(const OpCall& c, const Tensor& v, int64_t dim) {
  if (dim == -1) return run_op1("aten::linalg_vector_norm.default", {arg(v), arg(2.0)});
  if (dim < 0 || dim >= v.dim())
    fail(ErrorCode::BadInput, c.where(), "dim ", dim, " is out of range for a weight of ", v.dim(), " dimensions");
  std::vector<int64_t> others;
  for (int64_t d = 0; d < v.dim(); ++d)
    if (d != dim) others.push_back(d);
  return run_op1("aten::linalg_vector_norm.default", {arg(v), arg(2.0), arg(others), Value::from_bool(true)});
}

std::pair<Tensor, Tensor> weight_norm(const OpCall& c) {
  const Tensor& v = c.tensor(0);
  const Tensor& g = c.tensor(1);
  const Tensor norm = norm_except_dim(c, v, c.int_arg(2));
  const Tensor w = run_op1("aten::mul.Tensor", {arg(v), arg(run_op1("aten::div.Tensor", {arg(g), arg(norm)}))});
  return {w, norm};
}

void weight_norm_op(OpCall& c) { c.push(weight_norm(c).first); }

void weight_norm_interface_op(OpCall& c) {
  auto [w, norm] = weight_norm(c);
  c.push(w);
  c.push(norm);
}

}  // namespace

void register_weight_norm_ops(OpTable& t) {
  t.add("aten::_weight_norm(Tensor v, Tensor g, int dim=0) -> Tensor", weight_norm_op);
  t.add("aten::_weight_norm_interface(Tensor v, Tensor g, int dim=0) -> (Tensor, Tensor)", weight_norm_interface_op);
}

}  // namespace pt2web
