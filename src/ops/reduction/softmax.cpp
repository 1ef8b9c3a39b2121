// softmax and log_softmax along one dim (softmax.int, log_softmax.int,
// _softmax, _log_softmax) and _safe_softmax, which attention uses so that a
// fully masked row (all -inf) gives zeros instead of NaN.
//
// Numerically stable form: the row max is subtracted before exp. Each line
// computes in double and rounds once to the output dtype.
#include <cmath>
#include <limits>

#include "kernels/math/array_math.h"
#include "ops/reduction/reduction.h"
#include "ops/reduction/common.h"

namespace pt2web {

namespace {

enum class SoftmaxKind { Plain, Log, Safe };

// The input is converted to `out_dtype` first, as ATen does for the dtype
// argument and for _softmax's half_to_float.
template <SoftmaxKind Kind>
Tensor softmax_impl(const Tensor& x, int64_t dim, DType out_dtype, const std::string& where) {
  if (!is_floating(out_dtype))
    fail(ErrorCode::BadInput, where, "softmax expects a floating point input, got ", dtype_name(out_dtype));
  Lines lines = make_lines(x, dim, out_dtype, where);
  Tensor moved = empty_like_lines(lines, out_dtype, lines.len);
  visit_floating_dtype(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = lines.data.data<T>();
    T* dst = moved.data<T>();
    std::vector<double> shifted(static_cast<size_t>(lines.len));
    for (int64_t line = 0; line < lines.count; ++line) {
      const T* p = src + line * lines.len;
      T* q = dst + line * lines.len;
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < lines.len; ++k) m = std::max(m, convert_element<double>(p[k]));
      if (Kind == SoftmaxKind::Safe && m == -std::numeric_limits<double>::infinity()) {
        bool all_masked = true;
        for (int64_t k = 0; k < lines.len && all_masked; ++k) all_masked = !std::isnan(convert_element<double>(p[k]));
        if (all_masked) {
          for (int64_t k = 0; k < lines.len; ++k) q[k] = T(0.0f);
          continue;
        }
      }
      if constexpr (std::is_same<T, float>::value) {
        if (Kind != SoftmaxKind::Log && lines.len > 0) {
          softmax_f32(p, q, lines.len);
          continue;
        }
      }
      double sum = 0.0;
      for (int64_t k = 0; k < lines.len; ++k) {
        shifted[k] = convert_element<double>(p[k]) - m;
        sum += std::exp(shifted[k]);
      }
      if (Kind == SoftmaxKind::Log) {
        const double log_sum = std::log(sum);
        for (int64_t k = 0; k < lines.len; ++k) q[k] = convert_element<T>(shifted[k] - log_sum);
      } else {
        for (int64_t k = 0; k < lines.len; ++k) q[k] = convert_element<T>(std::exp(shifted[k]) / sum);
      }
    }
  });
  return restore_line_order(moved, lines);
}

// softmax.int(self, dim, dtype=None)
template <SoftmaxKind Kind>
void softmax_int_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  auto dtype = c.optional_dtype(2);
  c.push(softmax_impl<Kind>(x, c.int_arg(1), dtype ? *dtype : x.dtype(), c.where()));
}

// _softmax(self, dim, half_to_float): half_to_float turns a 16-bit float
// input into a float32 result.
template <SoftmaxKind Kind>
void softmax_internal_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  DType out_dtype = x.dtype();
  if (c.bool_arg(2)) {
    if (x.dtype() != DType::Float16 && x.dtype() != DType::BFloat16)
      fail(ErrorCode::BadInput, c.where(), "conversion is supported for Half type only");
    out_dtype = DType::Float32;
  }
  c.push(softmax_impl<Kind>(x, c.int_arg(1), out_dtype, c.where()));
}

}  // namespace

void register_softmax_ops(OpTable& t) {
  t.add("aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
        softmax_int_op<SoftmaxKind::Plain>);
  t.add("aten::log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
        softmax_int_op<SoftmaxKind::Log>);
  t.add("aten::_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
        softmax_int_op<SoftmaxKind::Safe>);
  t.add("aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", softmax_internal_op<SoftmaxKind::Plain>);
  t.add("aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor",
        softmax_internal_op<SoftmaxKind::Log>);
}

}  // namespace pt2web
