#include "passes/tensor_meta_rules.h"

#include <algorithm>
#include <optional>
#include <utility>

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

TensorMeta expanded_meta(const TensorMeta& m, const std::vector<SymInt>& sizes) {
  TensorMeta out = contiguous_meta(m.dtype, sizes);
  size_t lead = sizes.size() - m.sizes.size();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i < lead) {
      out.strides[i] = sym_const(0);
      continue;
    }
    size_t j = i - lead;
    bool broadcast = sym_is(m.sizes[j], 1) && !sym_is(sizes[i], 1);
    out.strides[i] = broadcast ? sym_const(0) : m.strides[j];
  }
  return out;
}

TensorMeta pointwise_meta(const TensorMeta& input, DType dtype) {
  TensorMeta out = contiguous_meta(dtype, input.sizes);
  if (is_contiguous(input) || input.strides.size() != input.sizes.size()) return out;
  // Order the dims outermost first by their example strides (ties keep dim order).
  std::vector<size_t> order(input.sizes.size());
  std::vector<int64_t> stride(input.sizes.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    auto s = input.strides[i].is_symbolic ? input.strides[i].hint : std::optional<int64_t>(input.strides[i].value);
    if (!s) return out;
    stride[i] = *s;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return stride[a] > stride[b]; });
  SymInt running = sym_const(1);
  for (size_t k = order.size(); k-- > 0;) {
    out.strides[order[k]] = running;
    running = sym_mul(running, input.sizes[order[k]]);
  }
  return out;
}

TensorMeta transposed_meta(const TensorMeta& m) {
  std::vector<int64_t> perm;
  for (size_t i = 0; i < m.sizes.size(); ++i) perm.push_back(static_cast<int64_t>(i));
  if (perm.size() >= 2) std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return permuted_meta(m, perm);
}

namespace {

std::optional<int64_t> example_value(const SymInt& s) {
  if (!s.is_symbolic) return s.value;
  return s.hint;
}

}  // namespace

// ATen's computeStride: walks the old dims from the innermost, grouping
// runs that are contiguous with each other; each group must be covered
// exactly by a run of new dims, whose strides follow from the group's base.
// Decisions use example values; the strides stay symbolic expressions.
std::optional<std::vector<SymInt>> view_strides_of(const TensorMeta& m, const std::vector<SymInt>& sizes) {
  std::vector<int64_t> old_sizes, old_strides, new_sizes;
  for (size_t i = 0; i < m.sizes.size(); ++i) {
    auto size = example_value(m.sizes[i]);
    auto stride = i < m.strides.size() ? example_value(m.strides[i]) : std::optional<int64_t>();
    if (!size || !stride) return std::nullopt;
    old_sizes.push_back(*size);
    old_strides.push_back(*stride);
  }
  int64_t numel = 1;
  for (const auto& s : sizes) {
    auto v = example_value(s);
    if (!v) return std::nullopt;
    new_sizes.push_back(*v);
    numel *= *v;
  }
  if (numel == 0 || old_sizes.empty()) return contiguous_strides(sizes);
  std::vector<SymInt> new_strides(sizes.size(), sym_const(1));
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  size_t chunk_base = old_sizes.size() - 1;  // the dim whose stride is the chunk's base
  int64_t tensor_numel = 1, view_numel = 1;
  SymInt view_numel_sym = sym_const(1);
  for (int64_t d = static_cast<int64_t>(old_sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= old_sizes[d];
    if (d == 0 || (old_sizes[d - 1] != 1 && old_strides[d - 1] != tensor_numel * old_strides[chunk_base])) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
        new_strides[view_d] = sym_mul(view_numel_sym, m.strides[chunk_base]);
        view_numel *= new_sizes[view_d];
        view_numel_sym = sym_mul(view_numel_sym, sizes[view_d]);
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base = static_cast<size_t>(d - 1);
        tensor_numel = 1;
        view_numel = 1;
        view_numel_sym = sym_const(1);
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

TensorMeta viewed_meta(const TensorMeta& m, const std::vector<SymInt>& sizes) {
  TensorMeta out = contiguous_meta(m.dtype, sizes);
  if (is_contiguous(m)) return out;
  auto strides = view_strides_of(m, sizes);
  if (strides) out.strides = *strides;
  return out;
}

}  // namespace pt2web
