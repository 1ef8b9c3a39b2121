// Square solvers on the LU factorization (lu_ops.h): linalg_solve and its
// _ex forms, linalg_inv(_ex) and inverse; and the triangular solvers
// triangular_solve and linalg_solve_triangular (kernels/linalg/triangular_solve
// through matrix_batch.h).
#include "ops/linalg/linalg.h"
#include "ops/linalg/lu_ops.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"
#include "ops/views.h"
#include "tensor/strided_loop.h"

namespace pt2web {

namespace {

std::string singular_message(int32_t info) {
  return "The diagonal element " + std::to_string(info) +
         " is zero, the inversion could not be completed because the input matrix is singular.";
}

// linalg_inv_ex(A, check_errors) -> (inverse, info): A^-1 = solve(A, I).
void inv_ex_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "linalg.inv", true);
  const LuResult r = lu_factor_batched(a);
  if (c.bool_arg(1)) throw_on_info(c, r.info, "linalg.inv", singular_message);
  Tensor x = identity_matrices(a.dtype(), batch_shape(a), a.size(-1));
  lu_solve_batched(r.lu, r.pivots, x, false);
  c.push(x);
  c.push(r.info);
}

void inv_op(OpCall& c) {
  c.push(run_op1("aten::linalg_inv_ex.default", {c.arg(0), Value::from_bool(true)}));
}

// B is a (batch of) vectors when it is 1-D or has exactly A's batch shape
// plus one dim of A's size (torch's linalg_solve_is_vector_rhs).
bool is_vector_rhs(const Tensor& a, const Tensor& b) {
  if (b.dim() == 1) return true;
  return b.dim() == a.dim() - 1 && Shape(a.sizes().begin(), a.sizes().end() - 1) == b.sizes();
}

// _linalg_solve_ex(A, B, left, check_errors) -> (result, LU, pivots, info).
// X A = B (left False) is solved as A^T X^T = B^T with A's factors.
void solve_ex_impl(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  const bool left = c.bool_arg(2);
  check_matrix_input(c, a, "linalg.solve", true);
  if (b.dtype() != a.dtype())
    fail(ErrorCode::BadInput, c.where(), "linalg.solve: Expected A and B to have the same dtype, but found A of type ",
         dtype_name(a.dtype()), " and B of type ", dtype_name(b.dtype()), " instead");
  const int64_t n = a.size(-1);
  const bool vector = is_vector_rhs(a, b);
  const Tensor rhs_matrix = vector ? reshape(b, batched(b.sizes(), {1})) : (left ? b : transpose_view(b, -2, -1));
  if (rhs_matrix.dim() < 2 || rhs_matrix.size(-2) != n)
    fail(ErrorCode::BadInput, c.where(), "linalg.solve: Incompatible shapes of A and B for the equation ",
         left ? "AX = B" : "XA = B", " (", n, "x", n, " and ", shape_to_string(b.sizes()), ")");
  const LuResult r = lu_factor_batched(a);
  if (c.bool_arg(3))
    throw_on_info(c, r.info, "torch.linalg.solve", [](int32_t) {
      return std::string("The solver failed because the input matrix is singular.");
    });
  const Shape batch = broadcast_shapes(batch_shape(a), batch_shape(rhs_matrix));
  const Tensor lu = expand_view(r.lu, batched(batch, {n, n})).clone();
  const Tensor pivots = expand_view(r.pivots, batched(batch, {n})).clone();
  Tensor x = expand_view(rhs_matrix, batched(batch, {n, rhs_matrix.size(-1)})).clone();
  lu_solve_batched(lu, pivots, x, !left);
  if (vector)
    x = reshape(x, Shape(x.sizes().begin(), x.sizes().end() - 1));
  else if (!left)
    x = transposed_copy(x);
  c.outputs = {Value::from_tensor(x), Value::from_tensor(r.lu), Value::from_tensor(r.pivots),
               Value::from_tensor(r.info)};
}

void solve_ex_op(OpCall& c) {
  std::vector<Value> out = run_op("aten::_linalg_solve_ex.default", {c.arg(0), c.arg(1), c.arg(2), c.arg(3)});
  c.outputs = {out[0], out[3]};
}

void solve_op(OpCall& c) {
  c.outputs = {run_op("aten::_linalg_solve_ex.default", {c.arg(0), c.arg(1), c.arg(2), Value::from_bool(true)})[0]};
}

// Solves op(A) X = B for triangular A over broadcast batches; returns X and
// A brought to the batch shape.
std::pair<Tensor, Tensor> triangular_solve_batched(const Tensor& a, const Tensor& b, bool upper, bool transpose,
                                                   bool unit) {
  auto [ab, x] = broadcast_batches(a, b);
  solve_triangular_in_place(ab, x, upper, unit, transpose);
  return {x, ab};
}

void check_triangular_operands(const OpCall& c, const Tensor& a, const Tensor& b, const char* op, bool left) {
  check_matrix_input(c, a, op, true);
  if (b.dim() < 2) fail(ErrorCode::BadInput, c.where(), op, ": The input tensor B must have at least 2 dimensions.");
  if (b.dtype() != a.dtype())
    fail(ErrorCode::BadInput, c.where(), op, ": Expected A and B to have the same dtype, but found ",
         dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
  if ((left ? b.size(-2) : b.size(-1)) != a.size(-1))
    fail(ErrorCode::BadInput, c.where(), op, ": Incompatible shapes of A and B for the equation ",
         left ? "AX = B" : "XA = B", " (", a.size(-2), "x", a.size(-1), " and ", b.size(-2), "x", b.size(-1), ")");
}

// triangular_solve(B, A, upper, transpose, unitriangular) -> (X, A's copy): op(A) X = B.
void triangular_solve_op(OpCall& c) {
  const Tensor& b = c.tensor(0);
  const Tensor& a = c.tensor(1);
  check_triangular_operands(c, a, b, "torch.triangular_solve", true);
  auto [x, ab] = triangular_solve_batched(a, b, c.bool_arg(2), c.bool_arg(3), c.bool_arg(4));
  c.push(x);
  c.push(ab);
}

// linalg_solve_triangular(A, B, upper, left, unitriangular): A X = B, or
// X A = B solved as A^T X^T = B^T.
void solve_triangular_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  const bool left = c.bool_arg(3);
  check_triangular_operands(c, a, b, "linalg.solve_triangular", left);
  const Tensor rhs = left ? b : transpose_view(b, -2, -1);
  Tensor x = triangular_solve_batched(a, rhs, c.bool_arg(2), !left, c.bool_arg(4)).first;
  c.push(left ? x : transposed_copy(x));
}

}  // namespace

void register_solve_ops(OpTable& t) {
  t.add("aten::linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)", inv_ex_op);
  t.add("aten::linalg_inv(Tensor A) -> Tensor", inv_op);
  t.add("aten::inverse(Tensor self) -> Tensor", inv_op);
  t.add("aten::_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, "
        "Tensor LU, Tensor pivots, Tensor info)",
        solve_ex_impl);
  t.add("aten::linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, "
        "Tensor info)",
        solve_ex_op);
  t.add("aten::linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", solve_op);
  t.add("aten::triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool "
        "unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)",
        triangular_solve_op);
  t.add("aten::linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool "
        "unitriangular=False) -> Tensor",
        solve_triangular_op);
}

}  // namespace pt2web
