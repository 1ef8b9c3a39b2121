// Extremum reductions: amax, amin, max, min (whole tensor and along a dim
// with indices), argmax, argmin, aminmax and median.
//
// NaN rules follow ATen: a NaN is the extremum (it propagates) and the index
// reported is that of the first NaN; among equal values the first index wins.
#include <algorithm>

#include "ops/elementwise.h"
#include "ops/reduction/reduction.h"
#include "ops/reduction/common.h"

namespace pt2web {

namespace {

// The extremum of a non-empty row and its index.
template <bool IsMax, typename T>
std::pair<T, int64_t> extreme_of_row(const T* p, int64_t n) {
  using M = opmath_t<T>;
  M best = static_cast<M>(p[0]);
  int64_t at = 0;
  if (is_nan_value(best)) return {p[0], 0};
  for (int64_t i = 1; i < n; ++i) {
    M v = static_cast<M>(p[i]);
    if (is_nan_value(v)) return {p[i], i};
    if (IsMax ? v > best : v < best) {
      best = v;
      at = i;
    }
  }
  return {p[at], at};
}

// Values (and optionally indices) of the extremum over `dims` (empty = all).
template <bool IsMax>
std::pair<Tensor, Tensor> extreme_impl(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim,
                                       bool want_values, bool want_indices, const std::string& where) {
  ReduceRows r = make_reduce_rows(x, dims, keepdim, x.dtype(), where);
  check_reduction_has_identity_or_data(x, r.dims, dims.empty(), where);
  Tensor values = want_values ? Tensor::empty(x.dtype(), r.out_shape) : Tensor();
  Tensor indices = want_indices ? Tensor::empty(DType::Int64, r.out_shape) : Tensor();
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = r.rows.data<T>();
    T* value_out = want_values ? values.data<T>() : nullptr;
    int64_t* index_out = want_indices ? indices.data<int64_t>() : nullptr;
    for (int64_t i = 0; i < r.outer; ++i) {
      auto best = extreme_of_row<IsMax>(src + i * r.inner, r.inner);
      if (value_out) value_out[i] = best.first;
      if (index_out) index_out[i] = best.second;
    }
  });
  return {values, indices};
}

template <bool IsMax>
void amax_op(OpCall& c) {
  c.push(extreme_impl<IsMax>(c.tensor(0), c.int_list(1), c.bool_arg(2), true, false, c.where()).first);
}

template <bool IsMax>
void max_all_op(OpCall& c) {
  c.push(extreme_impl<IsMax>(c.tensor(0), {}, false, true, false, c.where()).first);
}

template <bool IsMax>
void max_dim_op(OpCall& c) {
  auto result = extreme_impl<IsMax>(c.tensor(0), {c.int_arg(1)}, c.bool_arg(2), true, true, c.where());
  c.push(result.first);
  c.push(result.second);
}

// argmax/argmin: dim=None means the flattened tensor; keepdim then keeps
// every dim as size 1. ATen has no bool kernel for these.
template <bool IsMax>
void argmax_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dtype() == DType::Bool)
    elementwise::fail_not_implemented_for(c, IsMax ? "argmax_cpu" : "argmin_cpu", x.dtype());
  auto dim = c.optional_int(1);
  std::vector<int64_t> dims = dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{};
  c.push(extreme_impl<IsMax>(x, dims, c.bool_arg(2), false, true, c.where()).second);
}

void aminmax_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  auto dim = c.optional_int(1);
  std::vector<int64_t> dims = dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{};
  bool keepdim = c.bool_arg(2);
  c.push(extreme_impl<false>(x, dims, keepdim, true, false, c.where()).first);
  c.push(extreme_impl<true>(x, dims, keepdim, true, false, c.where()).first);
}

// median of every element: the lower of the two middle values for an even
// count, NaN when any element is NaN, and NaN for an empty tensor.
void median_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dtype() == DType::Bool) elementwise::fail_not_implemented_for(c, "median_cpu", x.dtype());
  Tensor flat = x.contiguous();
  Tensor out = Tensor::empty(x.dtype(), {});
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const int64_t n = flat.numel();
    T* dst = out.data<T>();
    if (n == 0) {
      *dst = convert_element<T>(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    const T* src = flat.data<T>();
    std::vector<M> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      values[i] = static_cast<M>(src[i]);
      if (is_nan_value(values[i])) {
        *dst = src[i];
        return;
      }
    }
    auto mid = values.begin() + (n - 1) / 2;
    std::nth_element(values.begin(), mid, values.end());
    *dst = convert_element<T>(*mid);
  });
  c.push(out);
}

}  // namespace

void register_minmax_ops(OpTable& t) {
  t.add("aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", amax_op<true>);
  t.add("aten::amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", amax_op<false>);
  t.add("aten::max(Tensor self) -> Tensor", max_all_op<true>);
  t.add("aten::min(Tensor self) -> Tensor", max_all_op<false>);
  t.add("aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        max_dim_op<true>);
  t.add("aten::min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        max_dim_op<false>);
  t.add("aten::argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", argmax_op<true>);
  t.add("aten::argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", argmax_op<false>);
  t.add("aten::aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)", aminmax_op);
  t.add("aten::median(Tensor self) -> Tensor", median_op);
}

}  // namespace pt2web
