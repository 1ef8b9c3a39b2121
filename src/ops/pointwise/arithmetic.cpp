// Elementwise arithmetic with broadcasting and ATen type promotion: add, sub,
// rsub, mul, div (true, trunc and floor), floor_divide, remainder, fmod and
// relu, with their Scalar overloads and in-place variants. pow/square/atan2
// live in pow.cpp, addcmul/addcdiv/lerp in ternary.cpp.
#include <cmath>
#include <limits>

#include "kernels/math/array_math.h"
#include "ops/complex/complex_arithmetic.h"
#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

// The dtype of a Scalar operand for the bool checks (numbers keep theirs).
DType operand_dtype(const Operand& o) { return o.is_number() ? scalar_default_dtype(*o.number) : o.tensor.dtype(); }

// ATen's alpha_check for add/sub.
void check_alpha(const OpCall& c, DType dtype, const Scalar& alpha) {
  if (alpha.kind == Scalar::Kind::Bool && dtype != DType::Bool)
    fail(ErrorCode::BadInput, c.where(), "Boolean alpha only supported for Boolean results.");
  if (!is_floating(dtype) && alpha.kind == Scalar::Kind::Double)
    fail(ErrorCode::BadInput, c.where(), "For integral input tensors, argument alpha must not be a floating point number.");
}

void check_not_bool_subtraction(const OpCall& c, const Operand& a, const Operand& b) {
  if (operand_dtype(a) == DType::Bool || operand_dtype(b) == DType::Bool)
    fail(ErrorCode::BadInput, c.where(),
         "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
         "use the `~` or `logical_not()` operator instead.");
}

// a + alpha * b (Negate: a - alpha * b), computed in opmath; numbers keep
// opmath precision (ATen's add kernels read them unrounded).
Tensor add_sub(const OpCall& c, const Operand& a, const Operand& b, const Scalar& alpha, bool negate) {
  DType dtype = result_type_of({&a, &b});
  if (is_complex(dtype))
    return complex_binary(negate ? ComplexBinary::Sub : ComplexBinary::Add, kernel_input(a, dtype),
                          kernel_input(b, dtype), dtype, alpha.to_double());
  check_alpha(c, dtype, alpha);
  check_kinds(c, dtype, Kinds::All);
  Tensor x = kernel_input(a, dtype, NumberRounding::Opmath);
  Tensor y = kernel_input(b, dtype, NumberRounding::Opmath);
  bool unit = alpha.to_double() == 1.0;
  return map_elements<Kinds::All, false>(dtype, [&](auto u, auto v) {
    using M = decltype(u);
    M scaled = unit ? v : wrapping_mul(v, scalar_as<M>(alpha));
    return negate ? wrapping_sub(u, scaled) : wrapping_add(u, scaled);
  }, x, y);
}

template <bool InPlace>
void add_op(OpCall& c) {
  push_result(c, add_sub(c, operand(c, 0), operand(c, 1), c.scalar(2), false), InPlace);
}

template <bool InPlace>
void sub_op(OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  check_not_bool_subtraction(c, a, b);
  push_result(c, add_sub(c, a, b, c.scalar(2), true), InPlace);
}

// rsub(self, other, alpha) = other - alpha * self.
void rsub_op(OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  check_not_bool_subtraction(c, a, b);
  c.push(add_sub(c, b, a, c.scalar(2), true));
}

template <bool InPlace>
void mul_op(OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  DType dtype = result_type_of({&a, &b});
  if (is_complex(dtype)) {
    push_result(c, complex_binary(ComplexBinary::Mul, kernel_input(a, dtype), kernel_input(b, dtype), dtype), InPlace);
    return;
  }
  check_kinds(c, dtype, Kinds::All);
  Tensor out = map_elements<Kinds::All, false>(
      dtype, [](auto u, auto v) { return wrapping_mul(u, v); }, kernel_input(a, dtype, NumberRounding::Opmath),
      kernel_input(b, dtype, NumberRounding::Opmath));
  push_result(c, out, InPlace);
}

// Floor division of floats the way ATen does it: from fmod, so the quotient
// is consistent with remainder() and exact for representable results.
template <typename M>
M floor_divide_float(M a, M b) {
  if (b == 0) return a / b;
  M mod = std::fmod(a, b);
  M div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= M(1);
  if (div == 0) return std::copysign(M(0), a / b);
  M floored = std::floor(div);
  if (div - floored > M(0.5)) floored += M(1);
  return floored;
}

template <typename M>
M floor_divide_int(M a, M b) {
  M q = int_div_trunc(a, b);
  if constexpr (std::is_signed<M>::value) {
    if (((a < 0) != (b < 0)) && int_rem_trunc(a, b) != 0) q = wrapping_sub(q, M(1));
  }
  return q;
}

enum class Rounding { True, Trunc, Floor };

Rounding rounding_mode(const OpCall& c, const std::optional<std::string>& mode) {
  if (!mode) return Rounding::True;
  if (*mode == "trunc") return Rounding::Trunc;
  if (*mode == "floor") return Rounding::Floor;
  fail(ErrorCode::BadInput, c.where(), "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
       *mode, "'");
}

Tensor divide(const OpCall& c, const Operand& a, const Operand& b, Rounding mode) {
  DType common = result_type_of({&a, &b});
  if (is_complex(common) && mode == Rounding::True)
    return complex_binary(ComplexBinary::Div, kernel_input(a, common), kernel_input(b, common), common);
  if (mode == Rounding::True) {
    // True division always gives a floating result.
    DType dtype = to_floating(common);
    return map_elements<Kinds::Floating, false>(
        dtype, [](auto u, auto v) { return u / v; }, kernel_input(a, dtype, NumberRounding::Opmath),
        kernel_input(b, dtype, NumberRounding::Opmath));
  }
  check_kinds(c, common, Kinds::Numeric);
  Tensor x = kernel_input(a, common), y = kernel_input(b, common);
  bool floor_mode = mode == Rounding::Floor;
  return map_elements<Kinds::All, false>(common, [floor_mode](auto u, auto v) {
    using M = decltype(u);
    if constexpr (std::is_floating_point<M>::value) {
      return floor_mode ? floor_divide_float(u, v) : std::trunc(u / v);
    } else if constexpr (std::is_same<M, bool>::value) {
      return u;  // unreachable: bool is rejected above
    } else {
      return floor_mode ? floor_divide_int(u, v) : int_div_trunc(u, v);
    }
  }, x, y);
}

template <bool InPlace>
void div_op(OpCall& c) {
  push_result(c, divide(c, operand(c, 0), operand(c, 1), Rounding::True), InPlace);
}

template <bool InPlace>
void div_mode_op(OpCall& c) {
  push_result(c, divide(c, operand(c, 0), operand(c, 1), rounding_mode(c, c.optional_string(2))), InPlace);
}

template <bool InPlace>
void floor_divide_op(OpCall& c) {
  push_result(c, divide(c, operand(c, 0), operand(c, 1), Rounding::Floor), InPlace);
}

// remainder (Python's %, sign of the divisor) and fmod (C's, sign of the dividend).
template <bool Python>
Tensor modulo(const OpCall& c, const Operand& a, const Operand& b) {
  DType dtype = result_type_of({&a, &b});
  check_kinds(c, dtype, Kinds::Numeric);
  return map_elements<Kinds::All, false>(dtype, [](auto u, auto v) {
    using M = decltype(u);
    if constexpr (std::is_same<M, bool>::value) {
      return u;  // unreachable: bool is rejected above
    } else {
      M r;
      if constexpr (std::is_floating_point<M>::value) r = std::fmod(u, v);
      else r = int_rem_trunc(u, v);
      if constexpr (Python && std::is_signed<M>::value) {
        if (r != 0 && ((v < 0) != (r < 0))) r = r + v;
      }
      return r;
    }
  }, kernel_input(a, dtype), kernel_input(b, dtype));
}

template <bool InPlace>
void remainder_op(OpCall& c) {
  push_result(c, modulo<true>(c, operand(c, 0), operand(c, 1)), InPlace);
}

template <bool InPlace>
void fmod_op(OpCall& c) {
  push_result(c, modulo<false>(c, operand(c, 0), operand(c, 1)), InPlace);
}

// relu = clamp_min(self, 0): NaN stays NaN.
template <bool InPlace>
void relu_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dtype() == DType::Bool) fail(ErrorCode::BadInput, c.where(), "Boolean inputs not supported for relu");
  check_kinds(c, x.dtype(), Kinds::Numeric);
  auto vectorized = [](const float* in, float* out, int64_t n) {
    clamp_f32(in, out, n, 0.0f, std::numeric_limits<float>::infinity());
  };
  Tensor out = map_unary_vectorized<Kinds::All>(x.dtype(), [](auto v) {
    using M = decltype(v);
    return v < M(0) ? M(0) : v;
  }, vectorized, x, InPlace);
  push_result(c, out, InPlace);
}

}  // namespace

void register_arithmetic_ops(OpTable& t) {
  t.add("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", add_op<false>);
  t.add("aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", add_op<false>);
  t.add("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", add_op<true>);
  t.add("aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", add_op<true>);
  t.add("aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", sub_op<false>);
  t.add("aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", sub_op<false>);
  t.add("aten::sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", sub_op<true>);
  t.add("aten::sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", sub_op<true>);
  t.add("aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", rsub_op);
  t.add("aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", rsub_op);
  t.add("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", mul_op<false>);
  t.add("aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", mul_op<false>);
  t.add("aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", mul_op<true>);
  t.add("aten::mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", mul_op<true>);
  t.add("aten::div.Tensor(Tensor self, Tensor other) -> Tensor", div_op<false>);
  t.add("aten::div.Scalar(Tensor self, Scalar other) -> Tensor", div_op<false>);
  t.add("aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", div_op<true>);
  t.add("aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", div_op<true>);
  t.add("aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", div_mode_op<false>);
  t.add("aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", div_mode_op<false>);
  t.add("aten::div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)",
        div_mode_op<true>);
  t.add("aten::div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)",
        div_mode_op<true>);
  t.add("aten::floor_divide(Tensor self, Tensor other) -> Tensor", floor_divide_op<false>);
  t.add("aten::floor_divide.Scalar(Tensor self, Scalar other) -> Tensor", floor_divide_op<false>);
  t.add("aten::floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", floor_divide_op<true>);
  t.add("aten::floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", floor_divide_op<true>);
  t.add("aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor", remainder_op<false>);
  t.add("aten::remainder.Scalar(Tensor self, Scalar other) -> Tensor", remainder_op<false>);
  t.add("aten::remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", remainder_op<false>);
  t.add("aten::remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", remainder_op<true>);
  t.add("aten::remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", remainder_op<true>);
  t.add("aten::fmod.Tensor(Tensor self, Tensor other) -> Tensor", fmod_op<false>);
  t.add("aten::fmod.Scalar(Tensor self, Scalar other) -> Tensor", fmod_op<false>);
  t.add("aten::fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", fmod_op<true>);
  t.add("aten::fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", fmod_op<true>);
  t.add("aten::relu(Tensor self) -> Tensor", relu_op<false>);
  t.add("aten::relu_(Tensor(a!) self) -> Tensor(a!)", relu_op<true>);
}

}  // namespace pt2web
