// Distance operators that ATen defines through others (native/Distance.cpp):
// cdist and pdist are the _cdist_forward / _pdist_forward kernels
// (distance.cpp: the same checks, and ATen's matrix-product path for
// cdist); pairwise_distance is the p-norm of x1 - x2 + eps over the last
// dim; cosine_similarity divides each input by its 2-norm along dim
// (clamped below by eps) and sums the products.
#include "ops/nn/composite_math.h"
#include "ops/nn/nn.h"
#include "ops/type_promotion.h"
#include "util/error.h"

namespace pt2web {

namespace {

using namespace nn_math;

// cdist: _cdist_forward makes torch.cdist's checks and picks its path.
void cdist_op(OpCall& c) { forward_to(c, "aten::_cdist_forward.default"); }

// pdist: _pdist_forward makes F.pdist's checks.
void pdist_op(OpCall& c) { forward_to(c, "aten::_pdist_forward.default"); }

void pairwise_distance_op(OpCall& c) {
  const Tensor& x1 = c.tensor(0);
  const Tensor& x2 = c.tensor(1);
  const int64_t innermost = std::max(x1.dim(), x2.dim()) - 1;
  const Tensor shifted = add(sub(x1, x2), c.double_arg(3));
  c.push(run_op1("aten::norm.ScalarOpt_dim", {arg(shifted), c.arg(2), arg(std::vector<int64_t>{innermost}), c.arg(4)}));
}

void cosine_similarity_op(OpCall& c) {
  Tensor x1 = c.tensor(0);
  Tensor x2 = c.tensor(1);
  const int64_t dim = c.int_arg(2);
  const DType common = result_type(x1, x2);
  if (!is_floating(common))
    fail(ErrorCode::BadInput, c.where(), "expected common dtype to be floating point, yet common dtype is ",
         dtype_name(common));
  if (!is_floating(x1.dtype())) x1 = x1.to(common);
  if (!is_floating(x2.dtype())) x2 = x2.to(common);
  const std::vector<Tensor> both = run_op("aten::broadcast_tensors.default",
                                          {Value::from_tensors({x1, x2})})[0].tensors;
  auto clamped_norm = [&](const Tensor& x) {
    const Tensor n = run_op1("aten::linalg_vector_norm.default",
                             {arg(x), arg(2.0), arg(std::vector<int64_t>{dim}), Value::from_bool(true)});
    return clamp_min(n, c.double_arg(3));
  };
  const Tensor a = div(both[0], clamped_norm(both[0]));
  const Tensor b = div(both[1], clamped_norm(both[1]));
  c.push(sum_dim(mul(a, b), dim));
}

}  // namespace

void register_distance_composite_ops(OpTable& t) {
  t.add("aten::cdist(Tensor x1, Tensor x2, float p=2., int? compute_mode=None) -> Tensor", cdist_op);
  t.add("aten::pdist(Tensor self, float p=2.) -> Tensor", pdist_op);
  t.add("aten::pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=1e-06, bool keepdim=False) -> Tensor",
        pairwise_distance_op);
  t.add("aten::cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor", cosine_similarity_op);
}

}  // namespace pt2web
