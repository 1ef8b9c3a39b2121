// Order statistics along one dim, read off a stable sort (ops/reduction/
// sort.cpp through the op table): kthvalue, median.dim, nanmedian (all
// elements and along a dim), mode and msort.
//
// The stable sort orders each line by value with NaN above every number and
// ties by position, which is the total order ATen's CPU kernels select from
// for median and nanmedian ("value, then index"), so picking a position of
// the sorted line gives ATen's value and index. kthvalue and mode return the
// same values as ATen; for tied values ATen's index depends on its
// (unstable) partitioning, while here it is the last tied position for mode
// (ATen's result for lines short enough for insertion sort) and the
// stable-order position for kthvalue.
#include <cmath>

#include "ops/op_compose.h"
#include "ops/reduction/common.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

namespace {

// One sorted line: the value at each sorted position and its original index.
template <typename T>
struct SortedLine {
  const T* values;
  const int64_t* indices;
  int64_t len;
  int64_t nan_count() const {
    int64_t n = 0;
    for (int64_t i = len - 1; i >= 0 && is_nan_value(static_cast<opmath_t<T>>(values[i])); --i) ++n;
    return n;
  }
};

// Picks one (value, index) per line of x along `dim`: pick(line) returns the
// sorted position to keep. Results have `dim` removed unless keepdim.
template <typename Pick>
std::pair<Tensor, Tensor> select_along_dim(const Tensor& x, int64_t dim, bool keepdim, const std::string& where,
                                           Pick&& pick) {
  const int64_t rank = x.dim();
  const int64_t d = wrap_dim(dim, rank, where.c_str());
  if (rank > 0 && x.sizes()[d] == 0)
    fail(ErrorCode::BadInput, where, "Expected reduction dim ", d, " to have non-zero size.");
  std::vector<Value> sorted = run_op("aten::sort.stable", {arg(x), Value::from_bool(true), arg(d)});
  Lines values = make_lines(sorted[0].tensor, d, x.dtype(), where);
  Lines indices = make_lines(sorted[1].tensor, d, DType::Int64, where);
  Tensor value_out = empty_like_lines(values, x.dtype(), 1);
  Tensor index_out = empty_like_lines(values, DType::Int64, 1);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t line = 0; line < values.count; ++line) {
      SortedLine<T> s{values.data.data<T>() + line * values.len, indices.data.data<int64_t>() + line * values.len,
                      values.len};
      const int64_t position = pick(s);
      value_out.data<T>()[line] = s.values[position];
      index_out.data<int64_t>()[line] = s.indices[position];
    }
  });
  Tensor v = restore_line_order(value_out, values), i = restore_line_order(index_out, values);
  if (!keepdim && rank > 0) {
    v = squeeze_view(v, {d});
    i = squeeze_view(i, {d});
  }
  return {v, i};
}

void push_pair(OpCall& c, std::pair<Tensor, Tensor> result) {
  c.push(std::move(result.first));
  c.push(std::move(result.second));
}

void reject_bool(const OpCall& c, const Tensor& x, const char* kernel) {
  if (x.dtype() == DType::Bool)
    fail(ErrorCode::BadInput, c.where(), "\"", kernel, "\" not implemented for 'Bool'");
}

// kthvalue(self, k, dim, keepdim): the k-th smallest (1-based).
void kthvalue_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const int64_t k = c.int_arg(1), dim = wrap_dim(c.int_arg(2), x.dim(), c.where().c_str());
  const int64_t len = x.dim() == 0 ? 1 : x.sizes()[dim];
  if (k < 1 || k > len)
    fail(ErrorCode::BadInput, c.where(), "kthvalue(): selected number k out of range for dimension ", dim);
  reject_bool(c, x, "kthvalue_cpu");
  push_pair(c, select_along_dim(x, dim, c.bool_arg(3), c.where(), [k](const auto&) { return k - 1; }));
}

// median.dim: the lower middle value; a line holding NaN gives its first NaN.
void median_dim_op(OpCall& c) {
  reject_bool(c, c.tensor(0), "median_out");
  push_pair(c, select_along_dim(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where(), [](const auto& s) {
    const int64_t nan = s.nan_count();
    return nan > 0 ? s.len - nan : (s.len - 1) / 2;
  }));
}

// nanmedian.dim: the lower middle of the non-NaN values (position 0, a NaN,
// when the line is all NaN).
int64_t nan_ignoring_middle(int64_t len, int64_t nan) { return len - nan > 0 ? (len - nan - 1) / 2 : 0; }

void nanmedian_dim_op(OpCall& c) {
  reject_bool(c, c.tensor(0), "nanmedian_out");
  push_pair(c, select_along_dim(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where(),
                                [](const auto& s) { return nan_ignoring_middle(s.len, s.nan_count()); }));
}

// nanmedian over every element; NaN for an empty or all-NaN tensor.
void nanmedian_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  reject_bool(c, x, "nanmedian_cpu");
  if (x.numel() == 0) {
    c.push(Tensor::scalar(x.dtype(), std::nan("")));
    return;
  }
  c.push(select_along_dim(reshape(x, {-1}), 0, false, c.where(), [](const auto& s) {
            return nan_ignoring_middle(s.len, s.nan_count());
          }).first);
}

// mode: the most frequent value (the smallest among equally frequent ones)
// and the last position holding it.
void mode_op(OpCall& c) {
  reject_bool(c, c.tensor(0), "mode_cpu");
  push_pair(c, select_along_dim(c.tensor(0), c.int_arg(1), c.bool_arg(2), c.where(), [](const auto& s) {
    int64_t best = 0, best_count = 0, run = 0;
    for (int64_t i = 0; i < s.len; ++i) {
      ++run;
      if (i == s.len - 1 || !(s.values[i] == s.values[i + 1])) {
        if (run > best_count) {
          best = i;
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
