// Ordering along one dim: sort (default and stable), argsort (default and
// stable) and topk.
//
// NaN orders above every number (last when ascending, first when
// descending), as in ATen. Equal values keep their original order, which is
// what ATen's stable sort gives; for the unstable variants and topk ATen
// leaves the order of ties unspecified, and the stable order is one of the
// orders it may produce.
#include <algorithm>
#include <numeric>

#include "ops/reduction/reduction.h"
#include "ops/reduction/common.h"

namespace pt2web {

namespace {

// Orders positions of one line: by value (NaN largest), ties by position.
template <typename T>
struct LineOrder {
  const T* line;
  bool descending;
  bool operator()(int64_t a, int64_t b) const {
    using M = opmath_t<T>;
    M va = static_cast<M>(line[a]), vb = static_cast<M>(line[b]);
    bool nan_a = is_nan_value(va), nan_b = is_nan_value(vb);
    if (nan_a != nan_b) return descending ? nan_a : nan_b;
    if (!nan_a && va != vb) return descending ? va > vb : va < vb;
    return a < b;
  }
};

// The first `k` values of every line in order, with their positions.
std::pair<Tensor, Tensor> ordered_prefix(const Tensor& x, int64_t dim, bool descending, int64_t k,
                                         const std::string& where) {
  Lines lines = make_lines(x, dim, x.dtype(), where);
  if (k < 0 || k > lines.len) fail(ErrorCode::BadInput, where, "selected index k out of range");
  Tensor values = empty_like_lines(lines, x.dtype(), k);
  Tensor indices = empty_like_lines(lines, DType::Int64, k);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = lines.data.data<T>();
    T* value_out = values.data<T>();
    int64_t* index_out = indices.data<int64_t>();
    std::vector<int64_t> order(static_cast<size_t>(lines.len));
    for (int64_t line = 0; line < lines.count; ++line) {
      const T* p = src + line * lines.len;
      std::iota(order.begin(), order.end(), int64_t(0));
      LineOrder<T> before{p, descending};
      if (k == lines.len) std::sort(order.begin(), order.end(), before);
      else std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      for (int64_t j = 0; j < k; ++j) {
        value_out[line * k + j] = p[order[j]];
        index_out[line * k + j] = order[j];
      }
    }
  });
  return {restore_line_order(values, lines), restore_line_order(indices, lines)};
}

std::pair<Tensor, Tensor> sort_impl(const Tensor& x, int64_t dim, bool descending, const std::string& where) {
  const int64_t len = x.dim() == 0 ? 1 : x.sizes()[wrap_dim(dim, x.dim(), where.c_str())];
  return ordered_prefix(x, dim, descending, len, where);
}

// sort(self, dim, descending)
void sort_op(OpCall& c) {
  auto result = sort_impl(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where());
  c.push(result.first);
  c.push(result.second);
}

// sort.stable(self, *, stable, dim, descending)
void sort_stable_op(OpCall& c) {
  auto result = sort_impl(c.tensor(0), c.int_arg(2), c.bool_arg(3), c.where());
  c.push(result.first);
  c.push(result.second);
}

void argsort_op(OpCall& c) { c.push(sort_impl(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where()).second); }
void argsort_stable_op(OpCall& c) {
  c.push(sort_impl(c.tensor(0), c.int_arg(2), c.bool_arg(3), c.where()).second);
}

// topk(self, k, dim, largest, sorted): the result is always sorted, which
// is a valid answer for sorted=False too.
void topk_op(OpCall& c) {
  auto result = ordered_prefix(c.tensor(0), c.int_arg(2), c.bool_arg(3), c.int_arg(1), c.where());
  c.push(result.first);
  c.push(result.second);
}

}  // namespace

void register_sort_ops(OpTable& t) {
  t.add("aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", sort_op);
  t.add("aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
        "(Tensor values, Tensor indices)",
        sort_stable_op);
  t.add("aten::argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", argsort_op);
  t.add("aten::argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor",
        argsort_stable_op);
  t.add("aten::topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> "
        "(Tensor values, Tensor indices)",
        topk_op);
}

}  // namespace pt2web
