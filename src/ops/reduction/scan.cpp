// Scans along one dim: cumsum (and cumsum_), cumprod, cummax, cummin and
// logcumsumexp. Running sums and products accumulate in the wide type of
// reduction/common.h and round each prefix once, as ATen's CPU kernels do.
#include <cmath>
#include <limits>

#include "ops/reduction/reduction.h"
#include "ops/reduction/common.h"

namespace pt2web {

namespace {

template <bool IsProd>
Tensor cumulative(const Tensor& x, int64_t dim, std::optional<DType> dtype, const std::string& where) {
  DType out_dtype = sum_result_dtype(x.dtype(), dtype);
  Lines lines = make_lines(x, dim, out_dtype, where);
  Tensor moved = empty_like_lines(lines, out_dtype, lines.len);
  visit_dtype(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = sum_acc_t<T>;
    const T* src = lines.data.data<T>();
    T* dst = moved.data<T>();
    for (int64_t line = 0; line < lines.count; ++line) {
      const int64_t base = line * lines.len;
      Acc acc = IsProd ? Acc(1) : Acc(0);
      for (int64_t k = 0; k < lines.len; ++k) {
        Acc v = to_acc<Acc>(src[base + k]);
        if constexpr (std::is_same<Acc, bool>::value) acc = IsProd ? (acc && v) : (acc || v);
        else acc = IsProd ? acc * v : acc + v;
        dst[base + k] = from_acc<T>(acc);
      }
    }
  });
  return restore_line_order(moved, lines);
}

template <bool IsProd>
void cumulative_op(OpCall& c) {
  c.push(cumulative<IsProd>(c.tensor(0), c.int_arg(1), c.optional_dtype(2), c.where()));
}

void cumsum_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  c.push(assign_in_place(self, cumulative<false>(self, c.int_arg(1), c.optional_dtype(2), c.where())));
}

// Running max/min with the index where it was reached. A later equal value
// takes over the index (ATen compares with >= / <=), and a NaN sticks from
// where it appears, each further NaN moving the index on.
template <bool IsMax>
void cumulative_extreme_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  Lines lines = make_lines(x, c.int_arg(1), x.dtype(), c.where());
  Tensor values = empty_like_lines(lines, x.dtype(), lines.len);
  Tensor indices = empty_like_lines(lines, DType::Int64, lines.len);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* src = lines.data.data<T>();
    T* value_out = values.data<T>();
    int64_t* index_out = indices.data<int64_t>();
    for (int64_t line = 0; line < lines.count; ++line) {
      const int64_t base = line * lines.len;
      M best = M(0);
      int64_t at = 0;
      for (int64_t k = 0; k < lines.len; ++k) {
        M v = static_cast<M>(src[base + k]);
        if (k == 0 || is_nan_value(v) || (!is_nan_value(best) && (IsMax ? v >= best : v <= best))) {
          best = v;
          at = k;
        }
        value_out[base + k] = convert_element<T>(best);
        index_out[base + k] = at;
      }
    }
  });
  c.push(restore_line_order(values, lines));
  c.push(restore_line_order(indices, lines));
}

// log(exp(a) + exp(b)) without overflow; equal infinities return a as is.
double log_add_exp(double a, double b) {
  double lo = std::isnan(b) ? b : std::min(a, b);
  double hi = std::isnan(b) ? b : std::max(a, b);
  if (lo != hi || std::isfinite(lo)) return hi + std::log1p(std::exp(lo - hi));
  return a;
}

void logcumsumexp_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (!is_floating(x.dtype()))
    fail(ErrorCode::BadInput, c.where(), "logcumsumexp expects a floating point input, got ", dtype_name(x.dtype()));
  Lines lines = make_lines(x, c.int_arg(1), x.dtype(), c.where());
  Tensor moved = empty_like_lines(lines, x.dtype(), lines.len);
  visit_floating_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = lines.data.data<T>();
    T* dst = moved.data<T>();
    for (int64_t line = 0; line < lines.count; ++line) {
      const int64_t base = line * lines.len;
      double acc = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < lines.len; ++k) {
        acc = log_add_exp(acc, convert_element<double>(src[base + k]));
        dst[base + k] = convert_element<T>(acc);
      }
    }
  });
  c.push(restore_line_order(moved, lines));
}

}  // namespace

void register_scan_ops(OpTable& t) {
  t.add("aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", cumulative_op<false>);
  t.add("aten::cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", cumsum_inplace_op);
  t.add("aten::cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", cumulative_op<true>);
  t.add("aten::cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", cumulative_extreme_op<true>);
  t.add("aten::cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", cumulative_extreme_op<false>);
  t.add("aten::logcumsumexp(Tensor self, int dim) -> Tensor", logcumsumexp_op);
}

}  // namespace pt2web
