// LU operators: linalg_lu_factor(_ex), _lu_with_info, linalg_lu, lu_unpack,
// linalg_lu_solve and lu_solve, on kernels/linalg/lu_factor (getrf's
// partial pivoting, 1-based int32 pivots) and triangular_solve.
#include <algorithm>

#include "kernels/linalg/lu_factor.h"
#include "kernels/linalg/triangular_solve.h"
#include "ops/linalg/linalg.h"
#include "ops/linalg/lu_ops.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"
#include "ops/views.h"
#include "tensor/strided_loop.h"

namespace pt2web {

LuResult lu_factor_batched(const Tensor& a) {
  const int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n);
  const Shape batch = batch_shape(a);
  LuResult r{a.clone(), int32_zeros(batched(batch, {k})), int32_zeros(batch)};
  const int64_t count = shape_numel(batch);
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < count; ++b)
      r.info.data<int32_t>()[b] = linalg::lu_factor(r.lu.data<T>() + b * m * n, m, n, r.pivots.data<int32_t>() + b * k);
  });
  return r;
}

// Solves A X = B (or A^T X = B) for A = P L U given as (lu, pivots), both
// contiguous with one batch shape; b (n x nrhs per matrix) is overwritten.
void lu_solve_batched(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool transpose) {
  const int64_t n = lu.size(-1), nrhs = b.size(-1), count = shape_numel(batch_shape(lu));
  dispatch_linalg(lu.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t i = 0; i < count; ++i) {
      const T* a = lu.data<T>() + i * n * n;
      const int32_t* piv = pivots.data<int32_t>() + i * n;
      T* x = b.data<T>() + i * n * nrhs;
      auto swap_rows = [&](int64_t j) {
        const int64_t p = piv[j] - 1;
        if (p != j) std::swap_ranges(x + j * nrhs, x + (j + 1) * nrhs, x + p * nrhs);
      };
      if (!transpose) {  // X = U^-1 L^-1 P^T B
        for (int64_t j = 0; j < n; ++j) swap_rows(j);
        linalg::triangular_solve(a, n, x, nrhs, false, true, false);
        linalg::triangular_solve(a, n, x, nrhs, true, false, false);
      } else {  // A^T = U^T L^T P^T: X = P L^-T U^-T B
        linalg::triangular_solve(a, n, x, nrhs, true, false, true);
        linalg::triangular_solve(a, n, x, nrhs, false, true, true);
        for (int64_t j = n - 1; j >= 0; --j) swap_rows(j);
      }
    }
  });
}

namespace {

void check_pivot_flag(const OpCall& c, bool pivot, const char* op) {
  if (!pivot) fail(ErrorCode::BadInput, c.where(), op, ": LU without pivoting is not implemented on the CPU");
}

void push_lu(OpCall& c, const LuResult& r) {
  c.push(r.lu);
  c.push(r.pivots);
  c.push(r.info);
}

void lu_factor_ex_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "torch.linalg.lu_factor_ex", false);
  check_pivot_flag(c, c.bool_arg(1), "linalg.lu_factor");
  const LuResult r = lu_factor_batched(a);
  if (c.bool_arg(2))
    throw_on_info(c, r.info, "torch.linalg.lu_factor", [](int32_t info) {
      return "U[" + std::to_string(info) + "," + std::to_string(info) + "] is zero and using it on lu_solve would "
             "result in a division by zero. If you still want to perform the factorization, consider calling "
             "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)";
    });
  push_lu(c, r);
}

void lu_factor_op(OpCall& c) {
  std::vector<Value> out = run_op("aten::linalg_lu_factor_ex.default", {c.arg(0), c.arg(1), Value::from_bool(true)});
  c.outputs = {out[0], out[1]};
}

// torch.lu's kernel: the factorization with its info, never raising.
void lu_with_info_op(OpCall& c) {
  c.outputs = run_op("aten::linalg_lu_factor_ex.default", {c.arg(0), c.arg(1), Value::from_bool(false)});
}

// P (m x m), L (m x k, unit diagonal) and U (k x n) from a packed LU and its pivots.
void unpack(OpCall& c, const Tensor& lu, const Tensor& pivots, bool unpack_data, bool unpack_pivots) {
  const int64_t m = lu.size(-2), n = lu.size(-1), k = std::min(m, n);
  const Shape batch = batch_shape(lu);
  const int64_t count = shape_numel(batch);
  Tensor packed = lu.contiguous();
  Tensor p = Tensor::empty(lu.dtype(), unpack_pivots ? batched(batch, {m, m}) : Shape{0});
  Tensor l = Tensor::empty(lu.dtype(), unpack_data ? batched(batch, {m, k}) : Shape{0});
  Tensor u = Tensor::empty(lu.dtype(), unpack_data ? batched(batch, {k, n}) : Shape{0});
  const Tensor piv = unpack_pivots ? expand_view(pivots.to(DType::Int64), batched(batch, {k})).clone() : Tensor();
  dispatch_linalg(lu.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < count; ++b) {
      const T* src = packed.data<T>() + b * m * n;
      if (unpack_data) {
        T* lb = l.data<T>() + b * m * k;
        T* ub = u.data<T>() + b * k * n;
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < k; ++j) lb[i * k + j] = i > j ? src[i * n + j] : i == j ? T(1) : T(0);
        for (int64_t i = 0; i < k; ++i)
          for (int64_t j = i; j < n; ++j) ub[i * n + j] = src[i * n + j];
      }
      if (unpack_pivots) {
        std::vector<int64_t> perm(static_cast<size_t>(m));
        for (int64_t i = 0; i < m; ++i) perm[i] = i;
        const int64_t* pv = piv.data<int64_t>() + b * k;
        for (int64_t j = 0; j < k; ++j) {
          if (pv[j] < 1 || pv[j] > m)
            fail(ErrorCode::BadInput, c.where(), "lu_unpack: pivot ", pv[j], " at position ", j,
                 " is out of range [1, ", m, "]");
          std::swap(perm[j], perm[pv[j] - 1]);
        }
        T* pb = p.data<T>() + b * m * m;
        for (int64_t i = 0; i < m; ++i) pb[perm[i] * m + i] = T(1);
      }
    }
  });
  c.push(p);
  c.push(l);
  c.push(u);
}

void lu_unpack_op(OpCall& c) {
  const Tensor& lu = c.tensor(0);
  const Tensor& pivots = c.tensor(1);
  check_matrix_input(c, lu, "torch.lu_unpack", false);
  if (pivots.dtype() != DType::Int32)
    fail(ErrorCode::BadInput, c.where(), "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                                         "torch.int32 dtype. Note: this function is intended to be used with the "
                                         "output produced by torch.linalg.lu_factor");
  if (pivots.dim() == 0 || pivots.size(-1) != std::min(lu.size(-2), lu.size(-1)))
    fail(ErrorCode::BadInput, c.where(), "torch.lu_unpack: LU_pivots has shape ", shape_to_string(pivots.sizes()),
         ", expected its last dim to be min(m, n) = ", std::min(lu.size(-2), lu.size(-1)));
  unpack(c, lu, pivots, c.bool_arg(2), c.bool_arg(3));
}

void linalg_lu_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "linalg.lu", false);
  check_pivot_flag(c, c.bool_arg(1), "linalg.lu");
  const LuResult r = lu_factor_batched(a);
  unpack(c, r.lu, r.pivots, true, true);
}

// linalg_lu_solve(LU, pivots, B, left, adjoint): A X = B (left) or X A = B,
// with A^T in place of A when adjoint. X A = B is A^T X^T = B^T.
void linalg_lu_solve_op(OpCall& c) {
  const Tensor& lu = c.tensor(0);
  const Tensor& pivots = c.tensor(1);
  const Tensor& b = c.tensor(2);
  const bool left = c.bool_arg(3), adjoint = c.bool_arg(4);
  check_matrix_input(c, lu, "linalg.lu_solve", true);
  if (b.dim() < 2) fail(ErrorCode::BadInput, c.where(), "linalg.lu_solve: The input tensor B must have at least 2 dimensions.");
  if (b.dtype() != lu.dtype())
    fail(ErrorCode::BadInput, c.where(), "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of "
                                         "type ", dtype_name(lu.dtype()), " and B of type ", dtype_name(b.dtype()),
         " instead");
  const int64_t n = lu.size(-1);
  if ((left ? b.size(-2) : b.size(-1)) != n)
    fail(ErrorCode::BadInput, c.where(), "linalg.lu_solve: Incompatible shapes of A and B for the equation ",
         left ? "AX = B" : "XA = B", " (", n, "x", n, " and ", b.size(-2), "x", b.size(-1), ")");
  if (pivots.dtype() != DType::Int32 || pivots.dim() < 1 || pivots.size(-1) != n)
    fail(ErrorCode::BadInput, c.where(), "linalg.lu_solve: pivots must be an int32 tensor whose last dim is ", n);
  const Tensor rhs = left ? b : transpose_view(b, -2, -1);
  const Shape batch = broadcast_shapes(broadcast_shapes(batch_shape(lu), batch_shape(rhs)),
                                       Shape(pivots.sizes().begin(), pivots.sizes().end() - 1));
  const Tensor lu_b = expand_view(lu, batched(batch, {n, n})).clone();
  const Tensor piv_b = expand_view(pivots, batched(batch, {n})).clone();
  Tensor x = expand_view(rhs, batched(batch, {n, rhs.size(-1)})).clone();
  lu_solve_batched(lu_b, piv_b, x, adjoint == left);
  c.push(left ? x : transposed_copy(x));
}

// lu_solve(B, LU, pivots): the deprecated spelling of linalg_lu_solve(LU, pivots, B).
void lu_solve_op(OpCall& c) {
  c.push(run_op1("aten::linalg_lu_solve.default", {c.arg(1), c.arg(2), c.arg(0)}));
}

}  // namespace

void register_lu_ops(OpTable& t) {
  t.add("aten::linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, "
        "Tensor info)",
        lu_factor_ex_op);
  t.add("aten::linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", lu_factor_op);
  t.add("aten::_lu_with_info(Tensor self, bool pivot=True, bool check_errors=True) -> (Tensor LU, Tensor pivots, "
        "Tensor info)",
        lu_with_info_op);
  t.add("aten::linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)", linalg_lu_op);
  t.add("aten::lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> "
        "(Tensor P, Tensor L, Tensor U)",
        lu_unpack_op);
  t.add("aten::linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor",
        linalg_lu_solve_op);
  t.add("aten::lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor", lu_solve_op);
}

}  // namespace pt2web
