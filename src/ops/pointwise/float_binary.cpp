// Two-input floating-point extras: copysign (integers promote to float32),
// and, on floating dtypes only as in ATen, hypot, logaddexp, logaddexp2 and
// nextafter (which steps in the dtype's own grid, float16 and bfloat16
// included); heaviside, which keeps its inputs' one dtype.
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/pointwise/floating_maps.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

template <bool InPlace>
void copysign_op(OpCall& c) {
  Tensor out = map_floating(c, operand(c, 0), operand(c, 1), [](auto a, auto b) { return std::copysign(a, b); });
  push_result(c, out, InPlace);
}

template <bool InPlace>
void hypot_op(OpCall& c) {
  push_result(c, map_common_floating(c, operand(c, 0), operand(c, 1), [](auto a, auto b) { return std::hypot(a, b); }),
              InPlace);
}

// log(exp(a) + exp(b)) = max + log1p(exp(-|a - b|)); equal infinities give
// themselves (their difference would be NaN).
void logaddexp_op(OpCall& c) {
  c.push(map_common_floating(c, operand(c, 0), operand(c, 1), [](auto a, auto b) {
    if (std::isinf(a) && a == b) return a;
    const auto m = std::max(a, b);
    return m + std::log1p(std::exp(-std::abs(a - b)));
  }));
}

// log2(2^a + 2^b) = max + log1p(2^-|a - b|) / ln 2.
void logaddexp2_op(OpCall& c) {
  c.push(map_common_floating(c, operand(c, 0), operand(c, 1), [](auto a, auto b) {
    using M = decltype(a);
    if (std::isinf(a) && a == b) return a;
    const M m = std::max(a, b);
    const M inv_ln2 = static_cast<M>(1.4426950408889634074);
    return m + std::log1p(std::exp2(-std::abs(a - b))) * inv_ln2;
  }));
}

// The next value after a toward b in a 16-bit format S (Half or BFloat16),
// both given as exact floats: a step of one in the bit pattern.
template <typename S>
float next_after_16(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return b;
  S s;
  if (a == 0) {
    s.bits = 1;  // the smallest subnormal, with b's sign
    if (b < 0) s.bits |= 0x8000;
  } else {
    s = S(a);
    const bool away_from_zero = (a < b) == (a > 0);
    s.bits = static_cast<uint16_t>(away_from_zero ? s.bits + 1 : s.bits - 1);
  }
  return static_cast<float>(s);
}

template <bool InPlace>
void nextafter_op(OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  DType dtype = common_floating_dtype(c, {&a, &b});
  Tensor out = map_elements<Kinds::Floating, false>(dtype, [dtype](auto x, auto y) {
    using M = decltype(x);
    if constexpr (std::is_same<M, float>::value) {
      if (dtype == DType::Float16) return next_after_16<Half>(x, y);
      if (dtype == DType::BFloat16) return next_after_16<BFloat16>(x, y);
    }
    return std::nextafter(x, y);
  }, kernel_input(a, dtype), kernel_input(b, dtype));
  push_result(c, out, InPlace);
}

// heaviside(x, values): values where x == 0, else (x > 0); NaN gives 0.
template <bool InPlace>
void heaviside_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& values = c.tensor(1);
  if (x.dtype() != values.dtype())
    fail(ErrorCode::BadInput, c.where(), "heaviside is not yet implemented for tensors with different dtypes.");
  DType dtype = x.dtype();
  check_kinds(c, dtype, Kinds::All);
  Tensor out = map_elements<Kinds::All, false>(dtype, [](auto v, auto h) {
    using M = decltype(v);
    return v == M(0) ? h : static_cast<M>(v > M(0));
  }, kernel_input(operand(x), dtype), kernel_input(operand(values), dtype));
  push_result(c, out, InPlace);
}

}  // namespace

void register_float_binary_ops(OpTable& t) {
  t.add("aten::copysign.Tensor(Tensor self, Tensor other) -> Tensor", copysign_op<false>);
  t.add("aten::copysign.Scalar(Tensor self, Scalar other) -> Tensor", copysign_op<false>);
  t.add("aten::copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", copysign_op<true>);
  t.add("aten::copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", copysign_op<true>);
  t.add("aten::hypot(Tensor self, Tensor other) -> Tensor", hypot_op<false>);
  t.add("aten::hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)", hypot_op<true>);
  t.add("aten::logaddexp(Tensor self, Tensor other) -> Tensor", logaddexp_op);
  t.add("aten::logaddexp2(Tensor self, Tensor other) -> Tensor", logaddexp2_op);
  t.add("aten::nextafter(Tensor self, Tensor other) -> Tensor", nextafter_op<false>);
  t.add("aten::nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)", nextafter_op<true>);
  t.add("aten::heaviside(Tensor self, Tensor values) -> Tensor", heaviside_op<false>);
  t.add("aten::heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)", heaviside_op<true>);
}

}  // namespace pt2web
