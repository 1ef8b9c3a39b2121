// Order statistics along one dim: kthvalue, median.dim, nanmedian (all
// elements and along a dim), mode and msort (sort along dim 0, through the
// op table).
//
// Each picks one element per line and returns it with its position. Which
// position ATen reports among tied values depends on its algorithm, so
// each follows ATen's CPU kernel:
// - median and nanmedian select from the total order "value (NaN above
//   every number), then position", so the result is fully determined;
//   median reports a line's first NaN when it holds one.
// - kthvalue runs the median-of-three quickselect (Sedgewick's partition)
//   that ATen runs, with NaN above every number.
// - mode sorts (value, position) pairs by value with libstdc++'s std::sort
//   (ops/reduction/gnu_order.h), as ATen does, and reports the last pair of
//   the longest run (the smallest value among equally long runs).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ops/elementwise.h"
#include "ops/op_compose.h"
#include "ops/reduction/common.h"
#include "ops/reduction/gnu_order.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

namespace {

// One line along the reduced dim, as opmath values (bool as uint8_t, so
// elements can be swapped).
template <typename T>
struct Line {
  using Elem = std::conditional_t<std::is_same<opmath_t<T>, bool>::value, uint8_t, opmath_t<T>>;
  std::vector<Elem> values;
  int64_t len() const { return static_cast<int64_t>(values.size()); }
  bool is_nan(int64_t i) const { return is_nan_value(values[i]); }
};

// Picks one element per line of x along `dim`: pick(line) returns the
// position (in the line) of the element to report. Results have `dim`
// removed unless keepdim.
template <typename Pick>
std::pair<Tensor, Tensor> select_along_dim(const Tensor& x, int64_t dim, bool keepdim, const std::string& where,
                                           Pick&& pick) {
  const int64_t rank = x.dim();
  const int64_t d = wrap_dim(dim, rank, where.c_str());
  if (rank > 0 && x.sizes()[d] == 0)
    fail(ErrorCode::BadInput, where, "Expected reduction dim ", d, " to have non-zero size.");
  Lines lines = make_lines(x, d, x.dtype(), where);
  Tensor value_out = empty_like_lines(lines, x.dtype(), 1);
  Tensor index_out = empty_like_lines(lines, DType::Int64, 1);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Line<T> line;
    for (int64_t l = 0; l < lines.count; ++l) {
      const T* src = lines.data.data<T>() + l * lines.len;
      line.values.resize(static_cast<size_t>(lines.len));
      for (int64_t i = 0; i < lines.len; ++i) line.values[i] = static_cast<typename Line<T>::Elem>(src[i]);
      const int64_t position = pick(line);
      value_out.data<T>()[l] = src[position];
      index_out.data<int64_t>()[l] = position;
    }
  });
  Tensor v = restore_line_order(value_out, lines), i = restore_line_order(index_out, lines);
  if (!keepdim && rank > 0) {
    v = squeeze_view(v, {d});
    i = squeeze_view(i, {d});
  }
  return {v, i};
}

// The line's positions ordered by value (NaN above every number), ties by position.
template <typename T>
std::vector<int64_t> total_order(const Line<T>& line) {
  std::vector<int64_t> order(static_cast<size_t>(line.len()));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (line.is_nan(a) != line.is_nan(b)) return line.is_nan(b);
    if (!line.is_nan(a) && line.values[a] != line.values[b]) return line.values[a] < line.values[b];
    return a < b;
  });
  return order;
}

// The position of the k-th smallest (0-based) after ATen's quickselect: the
// median of three of the ends and middle becomes the pivot, the range is
// partitioned by swapping from both ends, and the side holding k is kept.
template <typename T>
int64_t quickselect_position(const Line<T>& line, int64_t k) {
  using E = typename Line<T>::Elem;
  std::vector<E> v = line.values;
  std::vector<int64_t> pos(v.size());
  std::iota(pos.begin(), pos.end(), int64_t(0));
  auto above = [](E a, E b) {  // a orders after b
    return (is_nan_value(a) && !is_nan_value(b)) || a > b;
  };
  auto swap = [&](int64_t i, int64_t j) {
    std::swap(v[i], v[j]);
    std::swap(pos[i], pos[j]);
  };
  int64_t lo = 0, hi = static_cast<int64_t>(v.size()) - 1;
  while (hi > lo) {
    if (hi == lo + 1) {
      if (above(v[lo], v[hi])) swap(lo, hi);
      break;
    }
    swap((lo + hi) / 2, lo + 1);
    if (above(v[lo + 1], v[hi])) swap(lo + 1, hi);
    if (above(v[lo], v[hi])) swap(lo, hi);
    if (above(v[lo + 1], v[lo])) swap(lo + 1, lo);
    const E pivot = v[lo];
    int64_t i = lo + 1, j = hi;
    while (true) {
      do ++i;
      while (above(pivot, v[i]));
      do --j;
      while (above(v[j], pivot));
      if (j < i) break;
      swap(i, j);
    }
    swap(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
  return pos[k];
}

void push_pair(OpCall& c, std::pair<Tensor, Tensor> result) {
  c.push(std::move(result.first));
  c.push(std::move(result.second));
}

void reject_bool(const OpCall& c, const Tensor& x, const char* kernel) {
  if (x.dtype() == DType::Bool)
    elementwise::fail_not_implemented_for(c, kernel, x.dtype());
}

// kthvalue(self, k, dim, keepdim): the k-th smallest (1-based).
void kthvalue_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const int64_t k = c.int_arg(1), dim = wrap_dim(c.int_arg(2), x.dim(), c.where().c_str());
  const int64_t len = x.dim() == 0 ? 1 : x.sizes()[dim];
  if (k < 1 || k > len)
    fail(ErrorCode::BadInput, c.where(), "kthvalue(): selected number k out of range for dimension ", dim);
  reject_bool(c, x, "kthvalue_cpu");
  push_pair(c, select_along_dim(x, dim, c.bool_arg(3), c.where(),
                                [k](const auto& line) { return quickselect_position(line, k - 1); }));
}

// median.dim: the lower middle value; a line holding NaN gives its first NaN.
void median_dim_op(OpCall& c) {
  reject_bool(c, c.tensor(0), "median_out");
  push_pair(c, select_along_dim(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where(), [](const auto& line) {
    for (int64_t i = 0; i < line.len(); ++i)
      if (line.is_nan(i)) return i;
    return total_order(line)[(line.len() - 1) / 2];
  }));
}

// nanmedian: the lower middle of the non-NaN values (the first position, a
// NaN, when the line is all NaN).
template <typename T>
int64_t nan_ignoring_middle(const Line<T>& line) {
  int64_t numbers = 0;
  for (int64_t i = 0; i < line.len(); ++i) numbers += line.is_nan(i) ? 0 : 1;
  return total_order(line)[numbers > 0 ? (numbers - 1) / 2 : 0];
}

void nanmedian_dim_op(OpCall& c) {
  reject_bool(c, c.tensor(0), "nanmedian_out");
  push_pair(c, select_along_dim(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where(),
                                [](const auto& line) { return nan_ignoring_middle(line); }));
}

// nanmedian over every element; NaN for an empty or all-NaN tensor.
void nanmedian_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  reject_bool(c, x, "nanmedian_cpu");
  if (x.numel() == 0) {
    c.push(Tensor::scalar(x.dtype(), std::nan("")));
    return;
  }
  c.push(select_along_dim(reshape(x, {-1}), 0, false, c.where(),
                          [](const auto& line) { return nan_ignoring_middle(line); })
             .first);
}

// mode: the most frequent value (the smallest among equally frequent ones)
// and a position holding it, found as ATen finds them.
void mode_op(OpCall& c) {
  push_pair(c, select_along_dim(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where(), [](const auto& line) {
    using M = typename std::decay_t<decltype(line.values)>::value_type;
    std::vector<std::pair<M, int64_t>> pairs;
    for (int64_t i = 0; i < line.len(); ++i) pairs.emplace_back(line.values[i], i);
    gnu_order::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    int64_t best = 0, best_count = 0, run = 0;
    for (int64_t i = 0; i < line.len(); ++i) {
      ++run;
      if (i == line.len() - 1 || pairs[i].first != pairs[i + 1].first) {
        if (run > best_count) {
          best = pairs[i].second;
          best_count = run;
        }
        run = 0;
      }
    }
    return best;
  }));
}

// msort: sorted along dim 0.
void msort_op(OpCall& c) {
  c.push(run_op1("aten::sort.default", {arg(c.tensor(0)), arg(int64_t(0))}));
}

}  // namespace

void register_order_stats_ops(OpTable& t) {
  t.add("aten::kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
        kthvalue_op);
  t.add("aten::median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        median_dim_op);
  t.add("aten::nanmedian(Tensor self) -> Tensor", nanmedian_op);
  t.add("aten::nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        nanmedian_dim_op);
  t.add("aten::mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", mode_op);
  t.add("aten::msort(Tensor self) -> Tensor", msort_op);
}

}  // namespace pt2web
