// Ordering along one dim: sort (default and stable), argsort (default and
// stable) and topk.
//
// NaN orders above every number (last when ascending, first when
// descending), as in ATen. Ties come out where ATen's CPU kernels put them:
// the stable variants keep equal values in their original order
// (std::stable_sort); the others run the libstdc++ algorithms ATen calls
// (ops/reduction/gnu_order.h): sort is introsort, and topk is a heap
// selection when k is at most 1/64 of the line, otherwise introselect of
// the k-th value followed, when sorted, by introsort of the k-1 before it.
// A dim of stride 0 (an expanded tensor) is left as it is, as ATen leaves it.
#include <algorithm>
#include <numeric>

#include "ops/reduction/common.h"
#include "ops/reduction/gnu_order.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

namespace {

// ATen's value order for one line's positions: by value, NaN largest.
template <typename T>
struct ValueLess {
  const T* line;
  bool descending;
  bool operator()(int64_t a, int64_t b) const {
    using M = opmath_t<T>;
    M va = static_cast<M>(line[a]), vb = static_cast<M>(line[b]);
    bool nan_a = is_nan_value(va), nan_b = is_nan_value(vb);
    return descending ? (nan_a && !nan_b) || va > vb : (!nan_a && nan_b) || va < vb;
  }
};

// Which of ATen's CPU algorithms orders a line (and so its ties).
enum class Algorithm { StableSort, Sort, TopKSorted, TopKUnsorted };

// Reorders `order` (a line's positions) so its first k are what ATen's
// algorithm leaves there.
template <typename T>
void order_line(std::vector<int64_t>& order, int64_t k, Algorithm algorithm, ValueLess<T> less) {
  auto first = order.begin(), last = order.end();
  switch (algorithm) {
    case Algorithm::StableSort: std::stable_sort(first, last, less); return;
    case Algorithm::Sort: gnu_order::sort(first, last, less); return;
    case Algorithm::TopKSorted:
    case Algorithm::TopKUnsorted:
      if (k == 0) return;
      if (k * 64 <= last - first) {
        gnu_order::partial_sort(first, first + k, last, less);
      } else {
        gnu_order::nth_element(first, first + (k - 1), last, less);
        if (algorithm == Algorithm::TopKSorted) gnu_order::sort(first, first + (k - 1), less);
      }
      return;
  }
}

// The first `k` values of every line as `algorithm` orders them, with their positions.
std::pair<Tensor, Tensor> ordered_prefix(const Tensor& x, int64_t dim, bool descending, int64_t k,
                                         Algorithm algorithm, const std::string& where) {
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
      order_line(order, k, algorithm, ValueLess<T>{p, descending});
      for (int64_t j = 0; j < k; ++j) {
        value_out[line * k + j] = p[order[j]];
        index_out[line * k + j] = order[j];
      }
    }
  });
  return {restore_line_order(values, lines), restore_line_order(indices, lines)};
}

std::pair<Tensor, Tensor> sort_impl(const Tensor& x, int64_t dim, bool descending, bool stable,
                                    const std::string& where) {
  if (x.dim() == 0) return ordered_prefix(x, 0, descending, 1, Algorithm::StableSort, where);
  const int64_t d = wrap_dim(dim, x.dim(), where.c_str());
  // Every line of a stride-0 dim is one repeated value; ATen returns it unsorted.
  if (x.strides()[d] == 0) stable = true;
  return ordered_prefix(x, d, descending, x.sizes()[d], stable ? Algorithm::StableSort : Algorithm::Sort, where);
}

// sort(self, dim, descending)
void sort_op(OpCall& c) {
  auto result = sort_impl(c.tensor(0), c.int_arg(1), c.bool_arg(2), false, c.where());
  c.push(result.first);
  c.push(result.second);
}

// sort.stable(self, *, stable, dim, descending): stable=None means False.
void sort_stable_op(OpCall& c) {
  const bool stable = !c.arg(1).is_none() && c.bool_arg(1);
  auto result = sort_impl(c.tensor(0), c.int_arg(2), c.bool_arg(3), stable, c.where());
  c.push(result.first);
  c.push(result.second);
}

void argsort_op(OpCall& c) { c.push(sort_impl(c.tensor(0), c.int_arg(1), c.bool_arg(2), false, c.where()).second); }
void argsort_stable_op(OpCall& c) {
  c.push(sort_impl(c.tensor(0), c.int_arg(2), c.bool_arg(3), c.bool_arg(1), c.where()).second);
}

// topk(self, k, dim, largest, sorted)
void topk_op(OpCall& c) {
  const Algorithm algorithm = c.bool_arg(4) ? Algorithm::TopKSorted : Algorithm::TopKUnsorted;
  auto result = ordered_prefix(c.tensor(0), c.int_arg(2), c.bool_arg(3), c.int_arg(1), algorithm, c.where());
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
