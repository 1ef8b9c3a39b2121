#include "passes/tensor_meta_rules.h"

#include <algorithm>

#include "program/sym_build.h"
#include "util/error.h"

namespace pt2web {

namespace {

std::shared_ptr<const SymExpr> expr_of(const SymInt& s) {
  return s.is_symbolic ? s.expr : SymExpr::integer(s.value);
}

}  // namespace

SymInt sym_const(int64_t v) {
  SymInt s;
  s.value = v;
  return s;
}

SymInt sym_mul(const SymInt& a, const SymInt& b) {
  if (!a.is_symbolic && !b.is_symbolic) return sym_const(a.value * b.value);
  if (sym_is(a, 1)) return b;
  if (sym_is(b, 1)) return a;
  SymInt out;
  out.is_symbolic = true;
  out.expr = sym_detail::make_mul({expr_of(a), expr_of(b)});
  if ((a.hint || !a.is_symbolic) && (b.hint || !b.is_symbolic))
    out.hint = (a.is_symbolic ? *a.hint : a.value) * (b.is_symbolic ? *b.hint : b.value);
  return out;
}

bool sym_is(const SymInt& s, int64_t v) { return !s.is_symbolic && s.value == v; }

int64_t wrap_dim(int64_t dim, size_t rank) {
  int64_t r = static_cast<int64_t>(std::max<size_t>(rank, 1));
  int64_t d = dim < 0 ? dim + r : dim;
  PT2WEB_CHECK(d >= 0 && d < r, "dimension ", dim, " out of range for rank ", rank);
  return d;
}

std::vector<SymInt> contiguous_strides(const std::vector<SymInt>& sizes) {
  std::vector<SymInt> strides(sizes.size());
  SymInt running = sym_const(1);
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    // torch keeps the stride of a size-0/1 dim as the running product too.
    if (!sym_is(sizes[i], 0)) running = sym_mul(running, sizes[i]);
  }
  return strides;
}

TensorMeta contiguous_meta(DType dtype, std::vector<SymInt> sizes) {
  TensorMeta m;
  m.dtype = dtype;
  m.strides = contiguous_strides(sizes);
  m.sizes = std::move(sizes);
  return m;
}

TensorMeta with_dtype(TensorMeta meta, DType dtype) {
  meta.dtype = dtype;
  return meta;
}

TensorMeta permuted_meta(const TensorMeta& m, const std::vector<int64_t>& dims) {
  TensorMeta out = m;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], m.sizes.size());
    out.sizes[i] = m.sizes[d];
    if (d < static_cast<int64_t>(m.strides.size())) out.strides[i] = m.strides[d];
  }
  return out;
}

TensorMeta unsqueezed_meta(const TensorMeta& m, int64_t dim) {
  int64_t d = wrap_dim(dim, m.sizes.size() + 1);
  TensorMeta out = m;
  SymInt stride = d < static_cast<int64_t>(m.sizes.size()) ? sym_mul(m.strides[d], m.sizes[d]) : sym_const(1);
  out.sizes.insert(out.sizes.begin() + d, sym_const(1));
  out.strides.insert(out.strides.begin() + d, stride);
  return out;
}

TensorMeta squeezed_meta(const TensorMeta& m, const std::vector<int64_t>& dims) {
  TensorMeta out;
  out.dtype = m.dtype;
  out.requires_grad = m.requires_grad;
  for (size_t i = 0; i < m.sizes.size(); ++i) {
    bool listed = false;
    for (int64_t d : dims) listed = listed || wrap_dim(d, m.sizes.size()) == static_cast<int64_t>(i);
    if (listed && sym_is(m.sizes[i], 1)) continue;
    out.sizes.push_back(m.sizes[i]);
    out.strides.push_back(m.strides[i]);
  }
  return out;
}

TensorMeta reduced_meta(const TensorMeta& m, std::vector<int64_t> dims, bool keepdim) {
  std::vector<SymInt> sizes;
  for (size_t i = 0; i < m.sizes.size(); ++i) {
    bool reduced = dims.empty();
    for (int64_t d : dims) reduced = reduced || wrap_dim(d, m.sizes.size()) == static_cast<int64_t>(i);
    if (!reduced) sizes.push_back(m.sizes[i]);
    else if (keepdim) sizes.push_back(sym_const(1));
  }
  return contiguous_meta(m.dtype, sizes);
}

bool is_contiguous(const TensorMeta& m) {
  std::vector<SymInt> want = contiguous_strides(m.sizes);
  if (m.strides.size() != m.sizes.size()) return true;
  for (size_t i = 0; i < m.sizes.size(); ++i) {
    if (sym_is(m.sizes[i], 1)) continue;
    const SymInt& a = m.strides[i];
    const SymInt& b = want[i];
    if (a.is_symbolic != b.is_symbolic) return false;
    if (!a.is_symbolic && a.value != b.value) return false;
    if (a.is_symbolic && a.expr->to_string() != b.expr->to_string()) return false;
  }
  return true;
}

}  // namespace pt2web
