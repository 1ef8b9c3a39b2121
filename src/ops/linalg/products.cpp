// Products that ATen defines through other operators, run through the op
// table (ops/op_compose.h): outer, addr, addbmm, inner, tensordot, vdot,
// kron, trace and cross.
#include <algorithm>

#include "ops/linalg/linalg.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

void check_vector(const OpCall& c, const Tensor& t, const char* op, const char* name) {
  if (t.dim() != 1)
    fail(ErrorCode::BadInput, c.where(), op, ": Expected 1-D argument ", name, ", but got ", t.dim(), "-D");
}

Tensor multiply(const Tensor& a, const Tensor& b) { return run_op1("aten::mul.Tensor", {arg(a), arg(b)}); }

// outer(self, vec2)[i, j] = self[i] * vec2[j]
void outer_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  check_vector(c, a, "outer", "self");
  check_vector(c, b, "outer", "vec2");
  c.push(multiply(reshape(a, {a.numel(), 1}), b));
}

// addr(self, vec1, vec2, beta, alpha) = addmm(self, vec1 as a column, vec2 as a row, beta, alpha);
// for bool tensors ATen computes (beta && self) || (alpha && vec1[i] && vec2[j]).
void addr_op(OpCall& c) {
  const Tensor& v1 = c.tensor(1);
  const Tensor& v2 = c.tensor(2);
  check_vector(c, v1, "addr", "vec1");
  check_vector(c, v2, "addr", "vec2");
  const Tensor column = reshape(v1, {v1.numel(), 1}), row = reshape(v2, {1, v2.numel()});
  if (v1.dtype() != DType::Bool || v2.dtype() != DType::Bool || c.tensor(0).dtype() != DType::Bool) {
    c.push(run_op1("aten::addmm.default", {c.arg(0), arg(column), arg(row), c.arg(3), c.arg(4)}));
    return;
  }
  Tensor product = c.scalar(4).to_double() != 0 ? multiply(column, row) : Tensor::empty(DType::Bool, {v1.numel(),
                                                                                                      v2.numel()});
  if (c.scalar(3).to_double() != 0) product = run_op1("aten::logical_or.default", {arg(product), c.arg(0)});
  c.push(expand_view(product, {v1.numel(), v2.numel()}).clone());
}

// addbmm(self, batch1, batch2, beta, alpha): self scaled by beta, then
// alpha * batch1[b] @ batch2[b] added batch by batch (addmm each time, so
// 16-bit results round after every batch as ATen's do).
void addbmm_op(OpCall& c) {
  const Tensor& b1 = c.tensor(1);
  const Tensor& b2 = c.tensor(2);
  if (b1.dim() != 3) fail(ErrorCode::BadInput, c.where(), "batch1 must be a 3D tensor");
  if (b2.dim() != 3) fail(ErrorCode::BadInput, c.where(), "batch2 must be a 3D tensor");
  if (b1.size(0) != b2.size(0))
    fail(ErrorCode::BadInput, c.where(), "batch1 and batch2 must have same number of batches, got ", b1.size(0),
         " and ", b2.size(0));
  if (b1.size(2) != b2.size(1))
    fail(ErrorCode::BadInput, c.where(), "Incompatible matrix sizes for bmm (", b1.size(1), "x", b1.size(2), " and ",
         b2.size(1), "x", b2.size(2), ")");
  if (b1.size(0) == 0) {  // beta * self over an empty sum: a product with no inner dim
    c.push(run_op1("aten::addmm.default", {c.arg(0), arg(Tensor::empty(b1.dtype(), {b1.size(1), 0})),
                                           arg(Tensor::empty(b2.dtype(), {0, b2.size(2)})), c.arg(3), c.arg(4)}));
    return;
  }
  // 16-bit products run in float32, rounded once per batch: ATen's addmm
  // accumulates in float and rounds the combined result once.
  const DType dtype = b1.dtype();
  const bool widen = dtype == DType::Float16 || dtype == DType::BFloat16;
  auto wide = [&](const Tensor& t) { return widen ? t.to(DType::Float32) : t; };
  Value beta = c.arg(3);
  Tensor out = c.tensor(0);
  for (int64_t b = 0; b < b1.size(0); ++b) {
    out = run_op1("aten::addmm.default", {arg(wide(out)), arg(wide(select_view(b1, 0, b))),
                                          arg(wide(select_view(b2, 0, b))), beta, c.arg(4)});
    if (widen) out = out.to(dtype);
    beta = Value::from_int(1);
  }
  c.push(out);
}

// tensordot: the listed dims of self and other are contracted (a size-1 dim
// facing a longer one is summed away first); the result has self's free dims
// then other's.
Tensor tensordot(const OpCall& c, const Tensor& a, const Tensor& b, std::vector<int64_t> dims_a,
                 std::vector<int64_t> dims_b) {
  if (dims_a.size() != dims_b.size())
    fail(ErrorCode::BadInput, c.where(), "both dimension lists should have same length");
  Tensor x = a, y = b;
  int64_t contracted = 1;
  for (size_t i = 0; i < dims_a.size(); ++i) {
    dims_a[i] = wrap_dim(dims_a[i], a.dim());
    dims_b[i] = wrap_dim(dims_b[i], b.dim());
    const int64_t sa = a.sizes()[dims_a[i]], sb = b.sizes()[dims_b[i]];
    if (sb == 1) {
      x = run_op1("aten::sum.dim_IntList", {arg(x), arg(std::vector<int64_t>{dims_a[i]}), Value::from_bool(true),
                                            Value::from_dtype(x.dtype())});
    } else if (sa == 1) {
      y = run_op1("aten::sum.dim_IntList", {arg(y), arg(std::vector<int64_t>{dims_b[i]}), Value::from_bool(true),
                                            Value::from_dtype(y.dtype())});
    } else if (sa != sb) {
      fail(ErrorCode::BadInput, c.where(), "contracted dimensions need to match, but first has size ", sa, " in dim ",
           dims_a[i], " and second has size ", sb, " in dim ", dims_b[i]);
    } else {
      contracted *= sa;
    }
  }
  auto free_dims = [](const Tensor& t, const std::vector<int64_t>& used) {
    std::vector<int64_t> free;
    for (int64_t d = 0; d < t.dim(); ++d)
      if (std::find(used.begin(), used.end(), d) == used.end()) free.push_back(d);
    return free;
  };
  const std::vector<int64_t> free_a = free_dims(x, dims_a), free_b = free_dims(y, dims_b);
  Shape out_shape;
  int64_t rows = 1, cols = 1;
  for (int64_t d : free_a) rows *= x.sizes()[d], out_shape.push_back(x.sizes()[d]);
  for (int64_t d : free_b) cols *= y.sizes()[d], out_shape.push_back(y.sizes()[d]);
  std::vector<int64_t> perm_a = free_a, perm_b = dims_b;
  perm_a.insert(perm_a.end(), dims_a.begin(), dims_a.end());
  perm_b.insert(perm_b.end(), free_b.begin(), free_b.end());
  Tensor left = reshape(permute_view(x, perm_a), {rows, contracted});
  Tensor right = reshape(permute_view(y, perm_b), {contracted, cols});
  return reshape(run_op1("aten::mm.default", {arg(left), arg(right)}), out_shape);
}

void tensordot_op(OpCall& c) { c.push(tensordot(c, c.tensor(0), c.tensor(1), c.int_list(2), c.int_list(3))); }

// inner: a product over the last dims (a plain product when either is 0-d).
void inner_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  if (a.dim() == 0 || b.dim() == 0) {
    c.push(multiply(a, b));
    return;
  }
  if (a.size(-1) != b.size(-1))
    fail(ErrorCode::BadInput, c.where(), "inner() the last dimension must match on both input tensors but got shapes ",
         shape_to_string(a.sizes()), " and ", shape_to_string(b.sizes()));
  c.push(tensordot(c, a, b, {-1}, {-1}));
}

// vdot: dot of two equally long vectors of one dtype (conjugating the first, a no-op for real dtypes).
void vdot_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  if (a.dim() != 1 || b.dim() != 1)
    fail(ErrorCode::BadInput, c.where(), "1D tensors expected, but got ", a.dim(), "D and ", b.dim(), "D tensors");
  if (a.dtype() != b.dtype())
    fail(ErrorCode::BadInput, c.where(), "vdot : expected both vectors to have same dtype, but found ",
         dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
  if (a.numel() != b.numel())
    fail(ErrorCode::BadInput, c.where(), "inconsistent tensor size, expected tensor [", a.numel(), "] and src [",
         b.numel(), "] to have the same number of elements, but got ", a.numel(), " and ", b.numel(),
         " elements respectively");
  if (is_complex(a.dtype())) fail(ErrorCode::Unsupported, c.where(), "complex inputs are not supported");
  c.push(run_op1("aten::dot.default", {arg(a), arg(b)}));
}

// kron: with both padded to one rank, self[i] * other[j] lands at i * other.size + j
// in every dim: self as [a0, 1, a1, 1, ...] times other as [1, b0, 1, b1, ...].
void kron_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  const int64_t rank = std::max(a.dim(), b.dim());
  Shape sa(rank - a.dim(), 1), sb(rank - b.dim(), 1);
  sa.insert(sa.end(), a.sizes().begin(), a.sizes().end());
  sb.insert(sb.end(), b.sizes().begin(), b.sizes().end());
  Shape interleaved_a, interleaved_b, out;
  for (int64_t d = 0; d < rank; ++d) {
    interleaved_a.insert(interleaved_a.end(), {sa[d], 1});
    interleaved_b.insert(interleaved_b.end(), {1, sb[d]});
    out.push_back(sa[d] * sb[d]);
  }
  c.push(reshape(multiply(reshape(a, interleaved_a), reshape(b, interleaved_b)), out));
}

// trace: the sum of a matrix's main diagonal.
void trace_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() != 2) fail(ErrorCode::BadInput, c.where(), "trace: expected a matrix, but got tensor with dim ", x.dim());
  c.push(run_op1("aten::sum.default", {arg(diagonal_view(x, 0, 0, 1, c.where()))}));
}

// cross(self, other, dim): the 3-vector cross product along dim (by default
// the first dim of size 3 of the broadcast shape).
void cross_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  if (a.dim() != b.dim())
    fail(ErrorCode::BadInput, c.where(), "linalg.cross: inputs must have the same number of dimensions.");
  if (a.dim() == 0) fail(ErrorCode::BadInput, c.where(), "linalg.cross: inputs must have at least one dimension");
  const Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  int64_t dim = -1;
  if (auto given = c.optional_int(2)) {
    dim = wrap_dim(*given, static_cast<int64_t>(shape.size()));
  } else {
    for (size_t d = 0; d < shape.size() && dim < 0; ++d)
      if (shape[d] == 3) dim = static_cast<int64_t>(d);
    if (dim < 0) fail(ErrorCode::BadInput, c.where(), "no dimension of size 3 in input");
  }
  if (a.sizes()[dim] != 3 || b.sizes()[dim] != 3)
    fail(ErrorCode::BadInput, c.where(), "linalg.cross: inputs dimension ", dim, " must have length 3. Got ",
         a.sizes()[dim], " and ", b.sizes()[dim]);
  const Tensor x = expand_view(a, shape), y = expand_view(b, shape);
  auto component = [&](int64_t i, int64_t j) {
    return run_op1("aten::sub.Tensor", {arg(multiply(select_view(x, dim, i), select_view(y, dim, j))),
                                        arg(multiply(select_view(x, dim, j), select_view(y, dim, i)))});
  };
  std::vector<Tensor> parts{component(1, 2), component(2, 0), component(0, 1)};
  c.push(run_op1("aten::stack.default", {Value::from_tensors(parts), arg(dim)}));
}

}  // namespace

void register_product_ops(OpTable& t) {
  t.add("aten::outer(Tensor self, Tensor vec2) -> Tensor", outer_op);
  t.add("aten::addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addr_op);
  t.add("aten::addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        addbmm_op);
  t.add("aten::tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", tensordot_op);
  t.add("aten::inner(Tensor self, Tensor other) -> Tensor", inner_op);
  t.add("aten::vdot(Tensor self, Tensor other) -> Tensor", vdot_op);
  t.add("aten::kron(Tensor self, Tensor other) -> Tensor", kron_op);
  t.add("aten::trace(Tensor self) -> Tensor", trace_op);
  t.add("aten::cross(Tensor self, Tensor other, int? dim=None) -> Tensor", cross_op);
}

}  // namespace pt2web
