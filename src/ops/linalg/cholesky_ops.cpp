// Cholesky operators on kernels/linalg/cholesky (potrf, lower) and
// triangular_solve: linalg_cholesky(_ex), cholesky, cholesky_inverse and
// cholesky_solve. The upper factor U = L^T is computed as the lower factor of
// A^T, so that, as with potrf('U'), only A's upper triangle is read.
#include "kernels/linalg/cholesky.h"
#include "ops/linalg/linalg.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"

namespace pt2web {

namespace {

std::string not_positive_definite(int32_t info) {
  return "The factorization could not be completed because the input is not positive-definite (the leading minor "
         "of order " +
         std::to_string(info) + " is not positive-definite).";
}

struct CholeskyResult {
  Tensor factor, info;
};

CholeskyResult cholesky_batched(const Tensor& a, bool upper) {
  const int64_t n = a.size(-1);
  const Shape batch = batch_shape(a);
  CholeskyResult r{upper ? transposed_copy(a) : a.clone(), int32_zeros(batch)};
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch); ++b)
      r.info.data<int32_t>()[b] = linalg::cholesky(r.factor.data<T>() + b * n * n, n);
  });
  if (upper) r.factor = transposed_copy(r.factor);
  return r;
}

void cholesky_ex_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "linalg.cholesky", true);
  const CholeskyResult r = cholesky_batched(a, c.bool_arg(1));
  if (c.bool_arg(2)) throw_on_info(c, r.info, "linalg.cholesky", not_positive_definite);
  c.push(r.factor);
  c.push(r.info);
}

void linalg_cholesky_op(OpCall& c) {
  c.push(run_op1("aten::linalg_cholesky_ex.default", {c.arg(0), c.arg(1), Value::from_bool(true)}));
}

// cholesky_solve(B, F, upper): A X = B with A = F F^T (lower F) or F^T F (upper F).
void cholesky_solve_op(OpCall& c) {
  const Tensor& b = c.tensor(0);
  const Tensor& f = c.tensor(1);
  const bool upper = c.bool_arg(2);
  check_matrix_input(c, f, "cholesky_solve", true);
  if (b.dim() < 2) fail(ErrorCode::BadInput, c.where(), "b should have at least 2 dimensions, but has ", b.dim(),
                        " dimensions instead");
  if (b.dtype() != f.dtype())
    fail(ErrorCode::BadInput, c.where(), "Expected b and A to have the same dtype, but found b of type ",
         dtype_name(b.dtype()), " and A of type ", dtype_name(f.dtype()), " instead.");
  if (b.size(-2) != f.size(-1))
    fail(ErrorCode::BadInput, c.where(), "Incompatible matrix sizes for cholesky_solve: each A matrix is ", f.size(-1),
         " by ", f.size(-1), " but each b matrix is ", b.size(-2), " by ", b.size(-1));
  auto [factor, x] = broadcast_batches(f, b);
  // lower: L L^T X = B; upper: U^T U X = B.
  solve_triangular_in_place(factor, x, upper, false, upper);
  solve_triangular_in_place(factor, x, upper, false, !upper);
  c.push(x);
}

// cholesky_inverse(F, upper): (F F^T)^-1 = F^-T F^-1 (lower), (F^T F)^-1 = F^-1 F^-T (upper).
void cholesky_inverse_op(OpCall& c) {
  const Tensor& f = c.tensor(0);
  const bool upper = c.bool_arg(1);
  check_matrix_input(c, f, "cholesky_inverse", true);
  const int64_t n = f.size(-1);
  const Shape batch = batch_shape(f);
  const Tensor factor = f.clone();
  Tensor x = identity_matrices(f.dtype(), batch, n);
  // lower: X = L^-T L^-1 I; upper: X = U^-1 U^-T I.
  solve_triangular_in_place(factor, x, upper, false, upper);
  solve_triangular_in_place(factor, x, upper, false, !upper);
  c.push(x);
}

}  // namespace

void register_cholesky_ops(OpTable& t) {
  t.add("aten::linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor "
        "info)",
        cholesky_ex_op);
  t.add("aten::linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor", linalg_cholesky_op);
  t.add("aten::cholesky(Tensor self, bool upper=False) -> Tensor", linalg_cholesky_op);
  t.add("aten::cholesky_inverse(Tensor self, bool upper=False) -> Tensor", cholesky_inverse_op);
  t.add("aten::cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor", cholesky_solve_op);
}

}  // namespace pt2web
