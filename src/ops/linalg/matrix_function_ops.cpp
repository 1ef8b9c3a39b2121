// Functions of matrices and small linalg compositions: linalg_matrix_power /
// matrix_power (binary powering through matmul, inverse first for n < 0),
// linalg_matrix_exp / matrix_exp (kernels/linalg/matrix_exp),
// linalg_multi_dot (torch's cheapest multiplication order), linalg_vecdot,
// linalg_cross, linalg_diagonal and linalg_vander.
#include <functional>
#include <limits>

#include "kernels/linalg/matrix_exp.h"
#include "ops/linalg/linalg.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

namespace {

Tensor matmul(const Tensor& a, const Tensor& b) { return run_op1("aten::matmul.default", {arg(a), arg(b)}); }

// A^n: identity for 0, A^-|n| through linalg_inv, then repeated squaring
// with the result multiplied in at each set bit (torch's order of products).
void matrix_power_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  int64_t n = c.int_arg(1);
  if (a.dim() < 2 || a.size(-1) != a.size(-2))
    fail(ErrorCode::BadInput, c.where(), "linalg.matrix_power: A must be batches of square matrices, but they are ",
         a.dim() < 2 ? 0 : a.size(-2), " by ", a.dim() < 2 ? 0 : a.size(-1), " matrices");
  if (n == 0) {
    Tensor eye = run_op1("aten::eye.default", {arg(a.size(-1)), Value::from_dtype(a.dtype())});
    c.push(expand_view(eye, a.sizes()).clone());
    return;
  }
  Tensor base = a;
  if (n < 0) {
    base = run_op1("aten::linalg_inv.default", {arg(a)});
    n = -n;
  }
  if (n == 1) {
    c.push(base.clone());
    return;
  }
  if (n == 2 || n == 3) {
    Tensor square = matmul(base, base);
    c.push(n == 2 ? square : matmul(square, base));
    return;
  }
  Tensor z, result;
  while (n > 0) {
    const bool bit = n % 2 == 1;
    n /= 2;
    z = z.defined() ? matmul(z, z) : base;
    if (bit) result = result.defined() ? matmul(result, z) : z;
  }
  c.push(result);
}

void matrix_exp_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  if (a.dim() < 2 || a.size(-1) != a.size(-2))
    fail(ErrorCode::BadInput, c.where(), "linalg.matrix_exp: A must be batches of square matrices");
  check_matrix_input(c, a, "linalg.matrix_exp", true);
  const int64_t n = a.size(-1);
  if (n == 1) {
    c.push(run_op1("aten::exp.default", {arg(a)}));
    return;
  }
  const Tensor input = a.contiguous();
  Tensor out = Tensor::empty(a.dtype(), a.sizes());
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch_shape(a)); ++b)
      linalg::matrix_exp(input.data<T>() + b * n * n, n, out.data<T>() + b * n * n);
  });
  c.push(out);
}

// multi_dot: a leading 1-D operand is a row vector, a trailing one a column
// vector (both dropped from the result); three or more matrices are
// multiplied in the order of least scalar multiplications (the classic
// matrix-chain program; ties keep the leftmost split, as torch does).
void multi_dot_op(OpCall& c) {
  std::vector<Tensor> ts = c.tensor_list(0);
  const size_t count = ts.size();
  if (count < 2) fail(ErrorCode::BadInput, c.where(), "multi_dot(): expected at least 2 tensors but got ", count);
  const int64_t first_dim = ts.front().dim(), last_dim = ts.back().dim();
  for (size_t i = 0; i < count; ++i) {
    const int64_t d = ts[i].dim();
    const bool end = i == 0 || i + 1 == count;
    if (!(d == 2 || (end && d == 1)))
      fail(ErrorCode::BadInput, c.where(), "multi_dot(): tensor ", i, " must be 2D", end ? " or 1D" : "", " but got ",
           d, "D");
    if (ts[i].dtype() != ts[0].dtype())
      fail(ErrorCode::BadInput, c.where(), "multi_dot(): all tensors must have be the same dtype but tensor 0 is ",
           dtype_name(ts[0].dtype()), " and tensor ", i, " ", dtype_name(ts[i].dtype()));
  }
  if (first_dim == 1) ts.front() = reshape(ts.front(), {1, ts.front().size(0)});
  if (last_dim == 1) ts.back() = reshape(ts.back(), {ts.back().size(0), 1});
  for (size_t i = 0; i + 1 < count; ++i)
    if (ts[i].size(1) != ts[i + 1].size(0))
      fail(ErrorCode::BadInput, c.where(), "multi_dot(): tensors ", i, " and ", i + 1,
           " with shapes ", shape_to_string(ts[i].sizes()), " and ", shape_to_string(ts[i + 1].sizes()),
           " cannot be multiplied");
  auto mm = [](const Tensor& x, const Tensor& y) { return run_op1("aten::mm.default", {arg(x), arg(y)}); };
  Tensor result;
  if (count == 2) {
    result = mm(ts[0], ts[1]);
  } else {
    std::vector<int64_t> p(count + 1);
    for (size_t i = 0; i < count; ++i) p[i] = ts[i].size(0);
    p[count] = ts.back().size(1);
    std::vector<std::vector<int64_t>> cost(count, std::vector<int64_t>(count, 0)), split = cost;
    for (size_t length = 1; length < count; ++length)
      for (size_t i = 0; i + length < count; ++i) {
        const size_t j = i + length;
        cost[i][j] = std::numeric_limits<int64_t>::max();
        for (size_t k = i; k < j; ++k) {
          const int64_t q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
          if (q < cost[i][j]) cost[i][j] = q, split[i][j] = static_cast<int64_t>(k);
        }
      }
    std::function<Tensor(size_t, size_t)> chain = [&](size_t i, size_t j) -> Tensor {
      if (i == j) return ts[i];
      const size_t k = static_cast<size_t>(split[i][j]);
      return mm(chain(i, k), chain(k + 1, j));
    };
    result = chain(0, count - 1);
  }
  if (first_dim == 1 && last_dim == 1) result = reshape(result, {});
  else if (first_dim == 1) result = reshape(result, {result.size(1)});
  else if (last_dim == 1) result = reshape(result, {result.size(0)});
  c.push(result);
}

// vecdot(x, y, dim) = sum(conj(x) * y, dim) (conj is a no-op for real dtypes).
void vecdot_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& y = c.tensor(1);
  if (x.dtype() != y.dtype())
    fail(ErrorCode::BadInput, c.where(), "linalg.vecdot: Expected x and y to have the same dtype, but found x of type ",
         dtype_name(x.dtype()), " and y of type ", dtype_name(y.dtype()), " instead");
  const Tensor product = run_op1("aten::mul.Tensor", {arg(x), arg(y)});
  c.push(run_op1("aten::sum.dim_IntList", {arg(product), arg(std::vector<int64_t>{c.int_arg(2)})}));
}

// linalg_cross(self, other, dim=-1): cross along an explicit dim, inputs broadcast.
void linalg_cross_op(OpCall& c) { c.push(run_op1("aten::cross.default", {c.arg(0), c.arg(1), c.arg(2)})); }

void linalg_diagonal_op(OpCall& c) { forward_to(c, "aten::diagonal.default"); }

// vander(x, N): [..., n] -> [..., n, N] with columns x^0, x^1, ..., as the
// cumulative product of [1, x, x, ...] (integer and bool inputs count in int64).
void vander_op(OpCall& c) {
  const Tensor& given = c.tensor(0);
  // A 0-d x counts as one element (torch gives [1, N]).
  const Tensor x = given.dim() == 0 ? reshape(given, {1}) : given;
  const int64_t n = c.optional_int(1).value_or(x.size(-1));
  if (n <= 1) fail(ErrorCode::BadInput, c.where(), "N must be greater than 1.");
  const DType dtype = is_floating(x.dtype()) || is_complex(x.dtype()) ? x.dtype() : DType::Int64;
  Shape column = x.sizes(), rest = x.sizes();
  column.push_back(1);
  rest.push_back(n - 1);
  const Tensor xs = expand_view(reshape(x.to(dtype), column), rest);
  const Tensor ones = Tensor::scalar(dtype, 1);
  const Tensor parts = run_op1("aten::cat.default", {Value::from_tensors({expand_view(ones, column), xs}), arg(int64_t{-1})});
  c.push(run_op1("aten::cumprod.default", {arg(parts), arg(int64_t{-1})}));
}

}  // namespace

void register_matrix_function_ops(OpTable& t) {
  t.add("aten::linalg_matrix_power(Tensor self, int n) -> Tensor", matrix_power_op);
  t.add("aten::matrix_power(Tensor self, int n) -> Tensor", matrix_power_op);
  t.add("aten::linalg_matrix_exp(Tensor self) -> Tensor", matrix_exp_op);
  t.add("aten::matrix_exp(Tensor self) -> Tensor", matrix_exp_op);
  t.add("aten::linalg_multi_dot(Tensor[] tensors) -> Tensor", multi_dot_op);
  t.add("aten::linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", vecdot_op);
  t.add("aten::linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", linalg_cross_op);
  t.add("aten::linalg_diagonal(Tensor(a) A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor(a)",
        linalg_diagonal_op);
  t.add("aten::linalg_vander(Tensor x, *, SymInt? N=None) -> Tensor", vander_op);
}

}  // namespace pt2web
