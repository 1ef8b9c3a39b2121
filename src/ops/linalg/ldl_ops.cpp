// LDL^T operators on kernels/linalg/ldl (Bunch-Kaufman, LAPACK sytf2/sytrs
// lower): linalg_ldl_factor(_ex) and linalg_ldl_solve. For real inputs
// `hermitian` changes nothing.
#include <cstdlib>

#include "kernels/linalg/ldl.h"
#include "ops/linalg/linalg.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"
#include "ops/views.h"
#include "tensor/strided_loop.h"

namespace pt2web {

namespace {

void ldl_factor_ex_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "torch.linalg.ldl_factor_ex", true);
  const int64_t n = a.size(-1);
  const Shape batch = batch_shape(a);
  Tensor ld = a.clone(), pivots = int32_zeros(batched(batch, {n})), info = int32_zeros(batch);
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch); ++b)
      info.data<int32_t>()[b] = linalg::ldl_factor(ld.data<T>() + b * n * n, n, pivots.data<int32_t>() + b * n);
  });
  if (c.bool_arg(2))
    throw_on_info(c, info, "torch.linalg.ldl_factor_ex", [](int32_t code) {
      return "The factorization could not be completed because the input is singular: D[" + std::to_string(code) +
             "] is zero.";
    });
  c.push(ld);
  c.push(pivots);
  c.push(info);
}

void ldl_factor_op(OpCall& c) {
  std::vector<Value> out = run_op("aten::linalg_ldl_factor_ex.default", {c.arg(0), c.arg(1), Value::from_bool(true)});
  c.outputs = {out[0], out[1]};
}

// ldl_solve(LD, pivots, B): A X = B for A = P L D L^T P^T; batches broadcast.
void ldl_solve_op(OpCall& c) {
  const Tensor& ld = c.tensor(0);
  const Tensor& pivots = c.tensor(1);
  const Tensor& b = c.tensor(2);
  check_matrix_input(c, ld, "torch.linalg.ldl_solve", true);
  const int64_t n = ld.size(-1);
  if (b.dim() < 2 || b.size(-2) != n)
    fail(ErrorCode::BadInput, c.where(), "torch.linalg.ldl_solve: Incompatible shapes of A and B for the equation AX "
                                         "= B (", n, "x", n, " and ", shape_to_string(b.sizes()), ")");
  if (b.dtype() != ld.dtype())
    fail(ErrorCode::BadInput, c.where(), "torch.linalg.ldl_solve: Expected LD and B to have the same dtype, but found ",
         dtype_name(ld.dtype()), " and ", dtype_name(b.dtype()));
  if (pivots.dtype() != DType::Int32 || pivots.dim() != ld.dim() - 1 || pivots.size(-1) != n)
    fail(ErrorCode::BadInput, c.where(), "torch.linalg.ldl_solve: pivots must be an int32 tensor of shape ",
         shape_to_string(Shape(ld.sizes().begin(), ld.sizes().end() - 1)));
  const Shape batch = broadcast_shapes(batch_shape(ld), batch_shape(b));
  const Tensor factors = expand_view(ld, batched(batch, {n, n})).clone();
  const Tensor piv = expand_view(pivots, batched(batch, {n})).clone();
  Tensor x = expand_view(b, batched(batch, {n, b.size(-1)})).clone();
  const int64_t nrhs = x.size(-1);
  dispatch_linalg(ld.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t i = 0; i < shape_numel(batch); ++i) {
      const int32_t* p = piv.data<int32_t>() + i * n;
      for (int64_t k = 0; k < n; ++k)
        if (p[k] == 0 || std::abs(p[k]) > n)
          fail(ErrorCode::BadInput, c.where(), "torch.linalg.ldl_solve: pivot ", p[k], " at position ", k,
               " is out of range");
      linalg::ldl_solve(factors.data<T>() + i * n * n, n, p, x.data<T>() + i * n * nrhs, nrhs);
    }
  });
  c.push(x);
}

}  // namespace

void register_ldl_ops(OpTable& t) {
  t.add("aten::linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, bool check_errors=False) -> (Tensor LD, "
        "Tensor pivots, Tensor info)",
        ldl_factor_ex_op);
  t.add("aten::linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> (Tensor LD, Tensor pivots)", ldl_factor_op);
  t.add("aten::linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> Tensor", ldl_solve_op);
}

}  // namespace pt2web
