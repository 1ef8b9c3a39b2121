// matmul as ATen's _matmul_impl (aten/src/ATen/native/LinearAlgebra.cpp)
// writes it, so the emitted nodes are the ones torch's run_decompositions
// gives: dot / mv (as products and sums) / mm for 1-d and 2-d operands; a batch against a matrix
// folded into one mm when the batch's leading dims are contiguous with each
// other; otherwise both operands expanded to the broadcast batch, reshaped
// to 3-d, bmm, and viewed back.
#include <algorithm>

#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

std::vector<SymInt> slice(const std::vector<SymInt>& v, size_t from, size_t to) {
  return std::vector<SymInt>(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to));
}

SymInt product(const std::vector<SymInt>& v) {
  SymInt p = sym_const(1);
  for (const auto& s : v) p = sym_mul(p, s);
  return p;
}

// Broadcast of two batch shapes (a 1 gives way to the other size).
std::vector<SymInt> broadcast(const std::vector<SymInt>& a, const std::vector<SymInt>& b) {
  size_t n = std::max(a.size(), b.size());
  std::vector<SymInt> out(n);
  for (size_t i = 0; i < n; ++i) {
    const SymInt* x = i + a.size() >= n ? &a[i + a.size() - n] : nullptr;
    const SymInt* y = i + b.size() >= n ? &b[i + b.size() - n] : nullptr;
    if (!x) out[i] = *y;
    else if (!y || sym_is(*y, 1)) out[i] = *x;
    else out[i] = *y;
  }
  return out;
}

std::string expanded(GraphBuilder& b, const std::string& x, const std::vector<SymInt>& sizes) {
  return b.emit1("aten.expand.default", {tensor_arg(x), b.sym_ints_arg(sizes)}, expanded_meta(b.meta(x), sizes));
}

// should_fold: the larger operand has >= 3 dims, the other <= 2, and either
// the other requires grad (as recorded), or tensor1 is not a matrix and
// the larger one's batch dims (after the transpose when
// tensor2 is the larger) are contiguous with each other in the recorded
// strides.
bool should_fold(const TensorMeta& m1, const TensorMeta& m2) {
  bool first_larger = m1.sizes.size() >= m2.sizes.size();
  TensorMeta t1 = first_larger ? m1 : transposed_meta(m2);
  size_t dim_t1 = t1.sizes.size();
  size_t dim_t2 = first_larger ? m2.sizes.size() : m1.sizes.size();
  if (!(dim_t1 >= 3 && dim_t2 <= 2)) return false;
  // Folding keeps the gradient of the smaller operand small, even at the cost of a copy.
  if (first_larger ? m2.requires_grad : m1.requires_grad) return true;
  if (m1.sizes.size() == 2) return false;
  for (const auto& s : t1.sizes)
    if (sym_is(s, 0)) return true;
  for (size_t i = 0; i + 2 < dim_t1; ++i) {
    const SymInt& stride = t1.strides[i];
    SymInt want = sym_mul(t1.strides[i + 1], t1.sizes[i + 1]);
    auto value = [](const SymInt& s) { return s.is_symbolic ? s.hint : std::optional<int64_t>(s.value); };
    auto a = value(stride), c = value(want);
    if (!a || !c || *a != *c) return false;
  }
  return true;
}

// mv and dot as torch/_decomp writes them: a broadcast product, then a sum.
std::string emit_mv(GraphBuilder& b, const std::string& m, const std::string& v) {
  const TensorMeta mm = b.meta(m);
  std::string product = b.emit1("aten.mul.Tensor", {tensor_arg(m), tensor_arg(v)}, contiguous_meta(mm.dtype, mm.sizes));
  return b.emit1("aten.sum.dim_IntList", {tensor_arg(product), ints_arg({1})}, contiguous_meta(mm.dtype, {mm.sizes[0]}));
}

std::string emit_dot(GraphBuilder& b, const std::string& x, const std::string& y) {
  const TensorMeta mx = b.meta(x);
  std::string product = b.emit1("aten.mul.Tensor", {tensor_arg(x), tensor_arg(y)}, contiguous_meta(mx.dtype, mx.sizes));
  return b.emit1("aten.sum.dim_IntList", {tensor_arg(product), ints_arg({})}, contiguous_meta(mx.dtype, {}));
}

std::string folded_matmul(GraphBuilder& b, const std::string& x, const std::string& y) {
  size_t d1 = b.meta(x).sizes.size(), d2 = b.meta(y).sizes.size();
  bool transpose = d2 > d1;
  std::string t1 = transpose ? emit_matrix_transpose(b, y) : x;
  std::string t2 = !transpose ? y : d1 == 2 ? emit_matrix_transpose(b, x) : x;
  std::vector<SymInt> sizes1 = b.meta(t1).sizes;
  std::vector<SymInt> out_shape = slice(sizes1, 0, sizes1.size() - 1);
  SymInt rows = product(out_shape);
  bool t2_matrix = b.meta(t2).sizes.size() == 2;
  if (t2_matrix) out_shape.push_back(b.meta(t2).sizes[1]);
  std::string t1_folded = reshape_value(b, t1, {rows, sizes1.back()});
  DType dtype = b.meta(t1).dtype;
  if (!t2_matrix) return emit_view(b, emit_mv(b, t1_folded, t2), out_shape);
  std::string mm = b.emit1("aten.mm.default", {tensor_arg(t1_folded), tensor_arg(t2)},
                           contiguous_meta(dtype, {rows, out_shape.back()}));
  std::string out = emit_view(b, mm, out_shape);
  if (!transpose) return out;
  std::string back = emit_matrix_transpose(b, out);
  return b.emit1("aten.clone.default", {tensor_arg(back)}, contiguous_meta(dtype, b.meta(back).sizes),
                 {{"memory_format", memory_format_arg(kContiguousFormat)}});
}

std::string batched_matmul(GraphBuilder& b, const std::string& x, const std::string& y) {
  const TensorMeta mx = b.meta(x), my = b.meta(y);
  size_t d1 = mx.sizes.size(), d2 = my.sizes.size();
  SymInt n = d1 > 1 ? mx.sizes[d1 - 2] : sym_const(1);
  SymInt m1 = mx.sizes.back();
  SymInt m2 = d2 > 1 ? my.sizes[d2 - 2] : my.sizes.front();
  SymInt p = d2 > 1 ? my.sizes.back() : sym_const(1);
  std::vector<SymInt> batch = broadcast(slice(mx.sizes, 0, d1 >= 2 ? d1 - 2 : 0), slice(my.sizes, 0, d2 >= 2 ? d2 - 2 : 0));
  SymInt batch_product = product(batch);

  std::vector<SymInt> size1 = batch;
  size1.insert(size1.end(), {n, m1});
  std::string t1 = reshape_value(b, expanded(b, x, size1), {batch_product, n, m1});
  bool vector_rhs = d2 == 1;
  std::vector<SymInt> size2 = batch;
  size2.push_back(m2);
  if (!vector_rhs) size2.push_back(p);
  std::string t2 = expanded(b, y, size2);
  if (vector_rhs) {
    t2 = reshape_value(b, t2, {batch_product, m2});
    t2 = b.emit1("aten.unsqueeze.default", {tensor_arg(t2), int_arg(2)}, unsqueezed_meta(b.meta(t2), 2));
  } else {
    t2 = reshape_value(b, t2, {batch_product, m2, p});
  }
  std::vector<SymInt> out_shape = batch;
  if (d1 > 1) out_shape.push_back(n);
  if (d2 > 1) out_shape.push_back(p);
  std::string bmm = b.emit1("aten.bmm.default", {tensor_arg(t1), tensor_arg(t2)},
                            contiguous_meta(mx.dtype, {batch_product, n, p}));
  if (vector_rhs)
    bmm = b.emit1("aten.squeeze.dims", {tensor_arg(bmm), ints_arg({-1})}, squeezed_meta(b.meta(bmm), {-1}));
  return emit_view(b, bmm, out_shape);
}

bool matmul(GraphBuilder& b, const Node& node) {
  std::string out = emit_matmul(b, input_tensor(b, node, "self"), input_tensor(b, node, "other"));
  if (out.empty()) return false;
  bind_outputs(b, node, {out});
  return true;
}

}  // namespace

std::string emit_matrix_transpose(GraphBuilder& b, const std::string& x) {
  std::vector<int64_t> perm;
  size_t rank = b.meta(x).sizes.size();
  for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(i));
  std::swap(perm[rank - 1], perm[rank - 2]);
  return emit_permute(b, x, perm);
}

std::string emit_matmul(GraphBuilder& b, const std::string& x, const std::string& y) {
  const TensorMeta& mx = b.meta(x);
  const TensorMeta& my = b.meta(y);
  size_t d1 = mx.sizes.size(), d2 = my.sizes.size();
  DType dtype = mx.dtype;
  if (d1 == 0 || d2 == 0) return "";
  if (d1 == 1 && d2 == 1) return emit_dot(b, x, y);
  if (d1 == 2 && d2 == 1) return emit_mv(b, x, y);
  if (d1 == 1 && d2 == 2) {
    std::string row = b.emit1("aten.unsqueeze.default", {tensor_arg(x), int_arg(0)}, unsqueezed_meta(mx, 0));
    std::string mm = b.emit1("aten.mm.default", {tensor_arg(row), tensor_arg(y)},
                             contiguous_meta(dtype, {sym_const(1), my.sizes[1]}));
    return b.emit1("aten.squeeze.dims", {tensor_arg(mm), ints_arg({0})}, squeezed_meta(b.meta(mm), {0}));
  }
  if (d1 == 2 && d2 == 2)
    return b.emit1("aten.mm.default", {tensor_arg(x), tensor_arg(y)}, contiguous_meta(dtype, {mx.sizes[0], my.sizes[1]}));
  if (should_fold(mx, my)) return folded_matmul(b, x, y);
  return batched_matmul(b, x, y);
}

void add_matmul_decompositions(DecompositionTable& t) { t["aten::matmul.default"] = matmul; }

}  // namespace pt2web
