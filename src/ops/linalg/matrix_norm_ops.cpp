// Operators built on singular values, eigenvalues and inverses, composed
// from other table operators the way ATen composes them: linalg_pinv (all
// overloads) and pinverse, linalg_matrix_rank (all overloads),
// linalg_matrix_norm (numeric and 'fro'/'nuc' orders), linalg_norm,
// linalg_cond, linalg_tensorinv and linalg_tensorsolve.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "ops/linalg/linalg.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

namespace {

Tensor op1(const char* name, std::vector<Value> args) { return run_op1(name, std::move(args)); }
Tensor double_scalar(double v) { return Tensor::scalar(DType::Float64, v); }

double epsilon_of(DType dtype) {
  return dtype == DType::Float64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
}

// torch's tolerances: atol defaults to 0; rtol to eps * max(m, n), or to 0
// where a given atol is positive. Both float64 tensors.
std::pair<Tensor, Tensor> atol_rtol(const Tensor& input, const Tensor& atol_given, const Tensor& rtol_given) {
  const Tensor atol = atol_given.defined() ? atol_given : double_scalar(0);
  if (rtol_given.defined()) return {atol, rtol_given};
  const Tensor fallback = double_scalar(epsilon_of(input.dtype()) * double(std::max(input.size(-1), input.size(-2))));
  if (!atol_given.defined()) return {atol, fallback};
  const Tensor positive = op1("aten::gt.Scalar", {arg(atol_given), arg(0.0)});
  return {atol, op1("aten::where.self", {arg(positive), arg(double_scalar(0)), arg(fallback)})};
}

Tensor unsqueeze_last(const Tensor& t) { return op1("aten::unsqueeze.default", {arg(t), arg(int64_t{-1})}); }

Tensor transpose_last(const Tensor& t) { return transpose_view(t, -2, -1); }

// max(atol, rtol * largest) with the tolerances given per matrix.
Tensor tolerance(const Tensor& atol, const Tensor& rtol, const Tensor& largest) {
  return op1("aten::maximum.default",
             {arg(unsqueeze_last(atol)), arg(op1("aten::mul.Tensor", {arg(unsqueeze_last(rtol)), arg(largest)}))});
}

Tensor pinv(OpCall& c, const Tensor& input, const Tensor& atol_given, const Tensor& rtol_given, bool hermitian) {
  check_matrix_input(c, input, "linalg.pinv", false);
  const auto [atol, rtol] = atol_rtol(input, atol_given, rtol_given);
  if (input.numel() == 0) {
    Shape shape = batch_shape(input);
    shape.push_back(input.size(-1));
    shape.push_back(input.size(-2));
    return Tensor::empty(input.dtype(), shape);
  }
  const Tensor zero = Tensor::scalar(input.dtype(), 0);
  if (!hermitian) {
    const std::vector<Value> usv = run_op("aten::_linalg_svd.default", {arg(input), Value::from_bool(false)});
    const Tensor &u = usv[0].tensor, &s = usv[1].tensor, &vh = usv[2].tensor;
    const Tensor largest = slice_view(s, -1, 0, 1, 1);
    const Tensor keep = op1("aten::gt.Tensor", {arg(s), arg(tolerance(atol, rtol, largest))});
    const Tensor s_inv = op1("aten::where.self", {arg(keep), arg(op1("aten::reciprocal.default", {arg(s)})), arg(zero)});
    const Tensor scaled = op1("aten::mul.Tensor", {arg(transpose_last(vh)), arg(op1("aten::unsqueeze.default",
                                                                                     {arg(s_inv), arg(int64_t{-2})}))});
    return op1("aten::matmul.default", {arg(scaled), arg(transpose_last(u))});
  }
  const std::vector<Value> eig = run_op("aten::_linalg_eigh.default", {arg(input)});
  const Tensor &w = eig[0].tensor, &q = eig[1].tensor;
  const Tensor w_abs = op1("aten::abs.default", {arg(w)});
  const Tensor largest = op1("aten::amax.default", {arg(w_abs), arg(std::vector<int64_t>{-1}), Value::from_bool(true)});
  const Tensor keep = op1("aten::gt.Tensor", {arg(w_abs), arg(tolerance(atol, rtol, largest))});
  const Tensor w_inv = op1("aten::where.self", {arg(keep), arg(op1("aten::reciprocal.default", {arg(w)})), arg(zero)});
  const Tensor scaled =
      op1("aten::mul.Tensor", {arg(q), arg(op1("aten::unsqueeze.default", {arg(w_inv), arg(int64_t{-2})}))});
  return op1("aten::matmul.default", {arg(scaled), arg(transpose_last(q))});
}

Tensor optional_double_tensor(const std::optional<double>& v) { return v ? double_scalar(*v) : Tensor(); }

void pinv_tensor_op(OpCall& c) {
  c.push(pinv(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), c.bool_arg(3)));
}
void pinv_float_op(OpCall& c) {
  c.push(pinv(c, c.tensor(0), optional_double_tensor(c.optional_double(1)), optional_double_tensor(c.optional_double(2)),
              c.bool_arg(3)));
}
// linalg_pinv(self, rcond, hermitian) is atol = 0, rtol = rcond; pinverse too.
void pinv_rcond_op(OpCall& c) {
  c.push(pinv(c, c.tensor(0), double_scalar(0), double_scalar(c.double_arg(1)), c.bool_arg(2)));
}
void pinv_rcond_tensor_op(OpCall& c) {
  c.push(pinv(c, c.tensor(0), double_scalar(0), c.tensor(1), c.bool_arg(2)));
}
void pinverse_op(OpCall& c) { c.push(pinv(c, c.tensor(0), double_scalar(0), double_scalar(c.double_arg(1)), false)); }

// Singular values (|eigenvalues| when hermitian) above max(atol, rtol * largest), counted in int64.
Tensor matrix_rank(OpCall& c, const Tensor& input, const Tensor& atol_given, const Tensor& rtol_given, bool hermitian) {
  check_matrix_input(c, input, "torch.linalg.matrix_rank", false);
  const Tensor s = hermitian ? op1("aten::abs.default", {arg(op1("aten::linalg_eigvalsh.default", {arg(input)}))})
                             : op1("aten::linalg_svdvals.default", {arg(input)});
  const auto [atol, rtol] = atol_rtol(input, atol_given, rtol_given);
  Shape kept = s.sizes();
  kept.back() = 1;
  const Tensor largest = s.numel() == 0 ? Tensor::empty(s.dtype(), kept)
                                        : op1("aten::amax.default", {arg(s), arg(std::vector<int64_t>{-1}),
                                                                     Value::from_bool(true)});
  const Tensor above = op1("aten::gt.Tensor", {arg(s), arg(tolerance(atol, rtol, largest))});
  return op1("aten::sum.dim_IntList", {arg(above), arg(std::vector<int64_t>{-1})});
}

void rank_tensor_op(OpCall& c) {
  c.push(matrix_rank(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), c.bool_arg(3)));
}
void rank_float_op(OpCall& c) {
  c.push(matrix_rank(c, c.tensor(0), optional_double_tensor(c.optional_double(1)),
                     optional_double_tensor(c.optional_double(2)), c.bool_arg(3)));
}
void rank_tol_op(OpCall& c) {
  c.push(matrix_rank(c, c.tensor(0), double_scalar(c.double_arg(1)), double_scalar(0), c.bool_arg(2)));
}
void rank_tol_tensor_op(OpCall& c) {
  c.push(matrix_rank(c, c.tensor(0), c.tensor(1), double_scalar(0), c.bool_arg(2)));
}

// The two matrix dims wrapped and checked, as torch's matrix-norm checks do.
std::vector<int64_t> matrix_dims(const OpCall& c, const Tensor& a, std::vector<int64_t> dim) {
  if (a.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  if (dim.size() != 2)
    fail(ErrorCode::BadInput, c.where(), "linalg.matrix_norm: dim must be a 2-tuple. Got ", dim.size(), " dims");
  dim[0] = wrap_dim(dim[0], a.dim());
  dim[1] = wrap_dim(dim[1], a.dim());
  if (dim[0] == dim[1])
    fail(ErrorCode::BadInput, c.where(), "linalg.matrix_norm: dims must be different. Got (", dim[0], ", ", dim[1], ")");
  return dim;
}

// Singular values of the matrices spanned by dims (moved to the back).
Tensor singular_values_over(const Tensor& a, const std::vector<int64_t>& dim, std::vector<int64_t>& permutation) {
  permutation.clear();
  for (int64_t d = 0; d < a.dim(); ++d)
    if (d != dim[0] && d != dim[1]) permutation.push_back(d);
  permutation.push_back(dim[0]);
  permutation.push_back(dim[1]);
  return op1("aten::linalg_svdvals.default", {arg(permute_view(a, permutation))});
}

// A reduction over the back-moved matrix dims, put back in place for keepdim.
Tensor restore_kept_dims(const Tensor& reduced, const std::vector<int64_t>& permutation, bool keepdim) {
  if (!keepdim) return reduced;
  std::vector<int64_t> inverse(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) inverse[permutation[i]] = static_cast<int64_t>(i);
  return permute_view(unsqueeze_last(reduced), inverse);
}

Tensor with_dtype(const Tensor& a, const std::optional<DType>& dtype) { return dtype ? a.to(*dtype) : a; }

Tensor matrix_norm_numeric(OpCall& c, const Tensor& a, double ord, std::vector<int64_t> dim, bool keepdim,
                           const std::optional<DType>& dtype) {
  const double abs_ord = std::abs(ord);
  if (abs_ord != 2 && abs_ord != 1 && !std::isinf(abs_ord))
    fail(ErrorCode::BadInput, c.where(), "linalg.matrix_norm: Order ", ord, " not supported.");
  dim = matrix_dims(c, a, dim);
  const char* extreme = ord > 0 ? "aten::amax.default" : "aten::amin.default";
  if (abs_ord == 2) {
    std::vector<int64_t> permutation;
    const Tensor s = singular_values_over(with_dtype(a, dtype), dim, permutation);
    const Tensor r = op1(extreme, {arg(s), arg(std::vector<int64_t>{-1})});
    return restore_kept_dims(r, permutation, keepdim);
  }
  if (std::isinf(abs_ord)) std::swap(dim[0], dim[1]);
  if (!keepdim && dim[0] < dim[1]) --dim[1];
  Value dtype_value = dtype ? Value::from_dtype(*dtype) : Value::none();
  const Tensor sums = op1("aten::linalg_vector_norm.default", {arg(a), arg(1.0), arg(std::vector<int64_t>{dim[0]}),
                                                               Value::from_bool(keepdim), dtype_value});
  return op1(extreme, {arg(sums), arg(std::vector<int64_t>{dim[1]}), Value::from_bool(keepdim)});
}

Tensor matrix_norm_str(OpCall& c, const Tensor& a, const std::string& ord, std::vector<int64_t> dim, bool keepdim,
                       const std::optional<DType>& dtype) {
  if (ord != "fro" && ord != "nuc")
    fail(ErrorCode::BadInput, c.where(), "linalg.matrix_norm: Order ", ord, " not supported.");
  dim = matrix_dims(c, a, dim);
  if (ord == "fro") {
    Value dtype_value = dtype ? Value::from_dtype(*dtype) : Value::none();
    return op1("aten::linalg_vector_norm.default", {arg(a), arg(2.0), arg(dim), Value::from_bool(keepdim), dtype_value});
  }
  std::vector<int64_t> permutation;
  const Tensor s = singular_values_over(with_dtype(a, dtype), dim, permutation);
  const Tensor r = op1("aten::sum.dim_IntList", {arg(s), arg(std::vector<int64_t>{-1})});
  return restore_kept_dims(r, permutation, keepdim);
}

void matrix_norm_op(OpCall& c) {
  c.push(matrix_norm_numeric(c, c.tensor(0), c.scalar(1).to_double(), c.int_list(2), c.bool_arg(3),
                             c.optional_dtype(4)));
}
void matrix_norm_str_op(OpCall& c) {
  c.push(matrix_norm_str(c, c.tensor(0), c.string_arg(1), c.int_list(2), c.bool_arg(3), c.optional_dtype(4)));
}

void check_norm_dims(const OpCall& c, const Tensor& x, const std::optional<std::vector<int64_t>>& dim, bool has_ord) {
  if (dim && dim->size() != 1 && dim->size() != 2)
    fail(ErrorCode::BadInput, c.where(), "linalg.norm: If dim is specified, it must be of length 1 or 2. Got ",
         dim->size(), " dims");
  if (!dim && has_ord && x.dim() != 1 && x.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "linalg.norm: If dim is not specified but ord is, the input must be 1D or "
                                         "2D. Got ", x.dim(), "D.");
}

// linalg_norm: a matrix norm when ord is given over two dims (or a 2-D input
// without dims), else a vector norm (ord 2 by default).
void linalg_norm_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const std::optional<Scalar> ord = c.optional_scalar(1);
  const std::optional<std::vector<int64_t>> dim = c.optional_int_list(2);
  check_norm_dims(c, x, dim, ord.has_value());
  if (ord && ((dim && dim->size() == 2) || (!dim && x.dim() == 2))) {
    c.push(matrix_norm_numeric(c, x, ord->to_double(), dim.value_or(std::vector<int64_t>{0, 1}), c.bool_arg(3),
                               c.optional_dtype(4)));
    return;
  }
  c.push(op1("aten::linalg_vector_norm.default",
             {arg(x), ord ? arg(*ord) : arg(2.0), dim ? arg(*dim) : Value::none(), c.arg(3), c.arg(4)}));
}

void linalg_norm_str_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const std::optional<std::vector<int64_t>> dim = c.optional_int_list(2);
  check_norm_dims(c, x, dim, true);
  c.push(matrix_norm_str(c, x, c.string_arg(1), dim.value_or(std::vector<int64_t>{0, 1}), c.bool_arg(3),
                         c.optional_dtype(4)));
}

// cond(A, p): for p None/2/-2 the ratio of extreme singular values, else
// norm(A, p) * norm(A^-1, p) (square matrices only), where a singular A's
// inverse counts as all inf (so its condition number is inf, not an error).
Tensor cond_by_norms(OpCall& c, const Tensor& a, const std::function<Tensor(const Tensor&)>& norm) {
  check_matrix_input(c, a, "linalg.cond", true);
  const std::vector<Value> inverse_info = run_op("aten::linalg_inv_ex.default", {arg(a)});
  const Tensor singular = op1("aten::gt.Scalar", {arg(unsqueeze_last(unsqueeze_last(inverse_info[1].tensor))),
                                                  arg(int64_t{0})});
  const Tensor inverse = op1("aten::masked_fill.Scalar", {inverse_info[0], arg(singular),
                                                          arg(std::numeric_limits<double>::infinity())});
  return op1("aten::mul.Tensor", {arg(norm(a)), arg(norm(inverse))});
}

void cond_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const std::optional<Scalar> p = c.optional_scalar(1);
  const double ord = p ? p->to_double() : 2.0;
  if (std::abs(ord) == 2) {
    check_matrix_input(c, a, "linalg.cond", false);
    const Tensor s = op1("aten::linalg_svdvals.default", {arg(a)});
    const int64_t k = s.size(-1);
    if (k == 0) {
      c.push(Tensor::empty(a.dtype(), batch_shape(a)));
      return;
    }
    const Tensor first = select_view(s, -1, 0), last = select_view(s, -1, k - 1);
    c.push(ord > 0 ? op1("aten::div.Tensor", {arg(first), arg(last)}) : op1("aten::div.Tensor", {arg(last), arg(first)}));
    return;
  }
  c.push(cond_by_norms(c, a, [&](const Tensor& x) {
    return matrix_norm_numeric(c, x, ord, {-2, -1}, false, std::nullopt);
  }));
}

void cond_str_op(OpCall& c) {
  const std::string p = c.string_arg(1);
  c.push(cond_by_norms(c, c.tensor(0), [&](const Tensor& x) {
    return matrix_norm_str(c, x, p, {-2, -1}, false, std::nullopt);
  }));
}

// tensorinv(A, ind): A reshaped to a prod(shape[:ind]) square matrix, inverted,
// reshaped to shape[ind:] + shape[:ind].
void tensorinv_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const int64_t ind = c.int_arg(1);
  if (ind <= 0)
    fail(ErrorCode::BadInput, c.where(), "Expected a strictly positive integer for 'ind', but got ", ind);
  if (ind > a.dim()) fail(ErrorCode::BadInput, c.where(), "ind ", ind, " exceeds the input's ", a.dim(), " dims");
  const Shape front(a.sizes().begin(), a.sizes().begin() + ind), back(a.sizes().begin() + ind, a.sizes().end());
  const int64_t rows = shape_numel(front), cols = shape_numel(back);
  if (rows != cols)
    fail(ErrorCode::BadInput, c.where(), "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                                         "prod(self.shape[:ind]), but got ", cols, " != ", rows);
  const Tensor inverse = op1("aten::linalg_inv.default", {arg(reshape(a, {rows, cols}))});
  Shape out = back;
  out.insert(out.end(), front.begin(), front.end());
  c.push(reshape(inverse, out));
}

// tensorsolve(A, B, dims): A's listed dims moved to the end, then A as a
// prod(B.shape) x prod(rest) matrix solved against B flattened.
void tensorsolve_op(OpCall& c) {
  Tensor a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  if (auto dims = c.optional_int_list(2)) {
    std::vector<int64_t> moved;
    for (int64_t d : *dims) moved.push_back(wrap_dim(d, a.dim()));
    std::vector<int64_t> permutation;
    for (int64_t d = 0; d < a.dim(); ++d)
      if (std::find(moved.begin(), moved.end(), d) == moved.end()) permutation.push_back(d);
    permutation.insert(permutation.end(), moved.begin(), moved.end());
    a = permute_view(a, permutation);
  }
  if (b.dim() > a.dim())
    fail(ErrorCode::BadInput, c.where(), "other has more dims (", b.dim(), ") than self (", a.dim(), ")");
  const Shape result_shape(a.sizes().begin() + b.dim(), a.sizes().end());
  const int64_t result_size = shape_numel(result_shape), other_size = b.numel();
  if (a.numel() != result_size * other_size || result_size != other_size)
    fail(ErrorCode::BadInput, c.where(), "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                                         "prod(self.shape[:other.ndim]), but got ", result_size, " != ", other_size);
  const Tensor solved =
      op1("aten::linalg_solve.default", {arg(reshape(a, {other_size, result_size})), arg(reshape(b, {other_size}))});
  c.push(reshape(solved, result_shape));
}

}  // namespace

void register_matrix_norm_ops(OpTable& t) {
  t.add("aten::linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool "
        "hermitian=False) -> Tensor",
        pinv_tensor_op);
  t.add("aten::linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) "
        "-> Tensor",
        pinv_float_op);
  t.add("aten::linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor", pinv_rcond_op);
  t.add("aten::linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> Tensor",
        pinv_rcond_tensor_op);
  t.add("aten::pinverse(Tensor self, float rcond=1.0000000000000001e-15) -> Tensor", pinverse_op);
  t.add("aten::linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool "
        "hermitian=False) -> Tensor",
        rank_tensor_op);
  t.add("aten::linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool "
        "hermitian=False) -> Tensor",
        rank_float_op);
  t.add("aten::linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor", rank_tol_op);
  t.add("aten::linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> Tensor",
        rank_tol_tensor_op);
  t.add("aten::linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? "
        "dtype=None) -> Tensor",
        matrix_norm_op);
  t.add("aten::linalg_matrix_norm.str_ord(Tensor self, str ord=\"fro\", int[] dim=[-2, -1], bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor",
        matrix_norm_str_op);
  t.add("aten::linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? "
        "dtype=None) -> Tensor",
        linalg_norm_op);
  t.add("aten::linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? "
        "dtype=None) -> Tensor",
        linalg_norm_str_op);
  t.add("aten::linalg_cond(Tensor self, Scalar? p=None) -> Tensor", cond_op);
  t.add("aten::linalg_cond.p_str(Tensor self, str p) -> Tensor", cond_str_op);
  t.add("aten::linalg_tensorinv(Tensor self, int ind=2) -> Tensor", tensorinv_op);
  t.add("aten::linalg_tensorsolve(Tensor self, Tensor other, int[]? dims=None) -> Tensor", tensorsolve_op);
}

}  // namespace pt2web
