// Powers and two-argument math: pow (Tensor_Tensor, Tensor_Scalar, Scalar and
// in-place forms), square and atan2 (with its out= form).
#include <cmath>

#include "ops/pointwise/pointwise.h"
#include "ops/elementwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

// Integer power by repeated squaring, wrapping on overflow. Negative
// exponents give 1 for base 1, +-1 for base -1 and 0 otherwise (the integer
// part of the exact result), as ATen's powi.
template <typename M>
M int_pow(M base, M exponent) {
  if constexpr (std::is_signed<M>::value) {
    if (exponent < 0) {
      if (base == 1) return M(1);
      if (base == -1) return (exponent % 2 == 0) ? M(1) : M(-1);
      return M(0);
    }
  }
  M result = 1;
  while (exponent != 0) {
    if (exponent & 1) result = wrapping_mul(result, base);
    exponent = static_cast<M>(exponent / 2);
    base = wrapping_mul(base, base);
  }
  return result;
}

template <typename M>
M pow_elements(M base, M exponent) {
  if constexpr (std::is_floating_point<M>::value) return std::pow(base, exponent);
  else if constexpr (std::is_same<M, bool>::value) return base || !exponent;
  else return int_pow(base, exponent);
}

Tensor pow_tensors(const OpCall& c, const Operand& base, const Operand& exponent) {
  DType dtype = result_type_of({&base, &exponent});
  check_kinds(c, dtype, Kinds::Numeric);
  return map_elements<Kinds::All, false>(
      dtype, [](auto b, auto e) { return pow_elements(b, e); }, kernel_input(base, dtype), kernel_input(exponent, dtype));
}

// A tensor filled with one, of x's shape (pow with exponent 0, or base 1).
Tensor ones_like(const Shape& sizes, DType dtype) {
  Tensor out = Tensor::empty(dtype, sizes);
  out.copy_from(Tensor::scalar(dtype, 1.0));
  return out;
}

// pow(tensor, number): ATen short-cuts exponents 0 and 1 and the common
// small powers, and evaluates float32 powers of other exponents in double.
Tensor pow_scalar_exponent(const OpCall& c, const Tensor& base, const Scalar& exponent) {
  if (is_integral(base.dtype()) || base.dtype() == DType::Bool) {
    if (exponent.kind != Scalar::Kind::Double && exponent.i < 0)
      fail(ErrorCode::BadInput, c.where(), "Integers to negative integer powers are not allowed.");
  }
  DType dtype = result_type(base, exponent);
  check_kinds(c, dtype, Kinds::All);
  double e = exponent.to_double();
  if (e == 0.0) return ones_like(base.sizes(), dtype);
  if (e == 1.0) return base.to(dtype, true);
  Tensor x = kernel_input(operand(base), dtype);
  if (!is_floating(dtype)) {
    Tensor y = kernel_input(operand(exponent), dtype);
    return map_elements<Kinds::All, false>(dtype, [](auto b, auto p) { return pow_elements(b, p); }, x, y);
  }
  // The 16-bit floats see the exponent rounded to their own precision.
  if (dtype == DType::Float16 || dtype == DType::BFloat16) e = Tensor::scalar(dtype, e).item_as_double();
  return map_elements<Kinds::Floating, false>(dtype, [e](auto b) {
    using M = decltype(b);
    if (e == 2.0) return b * b;
    if (e == 3.0) return b * b * b;
    if (e == 0.5) return std::sqrt(b);
    if (e == -0.5) return M(1) / std::sqrt(b);
    if (e == -1.0) return M(1) / b;
    if (e == -2.0) return M(1) / (b * b);
    return static_cast<M>(std::pow(static_cast<double>(b), e));
  }, x);
}

template <bool InPlace>
void pow_tensor_scalar(OpCall& c) {
  push_result(c, pow_scalar_exponent(c, c.tensor(0), c.scalar(1)), InPlace);
}

template <bool InPlace>
void pow_tensor_tensor(OpCall& c) {
  Operand exponent = operand(c, 1);
  Tensor out = exponent.is_number() ? pow_scalar_exponent(c, c.tensor(0), *exponent.number)
                                    : pow_tensors(c, operand(c, 0), exponent);
  push_result(c, out, InPlace);
}

// pow(number, tensor): base 1 gives ones without looking at the exponent.
void pow_scalar_base(OpCall& c) {
  Operand base = operand(c.scalar(0));
  Operand exponent = operand(c, 1);
  if (base.number->to_double() == 1.0) {
    c.push(ones_like(exponent.sizes(), result_type_of({&base, &exponent})));
    return;
  }
  c.push(pow_tensors(c, base, exponent));
}

template <bool InPlace>
void square_op(OpCall& c) {
  Scalar two;
  two.kind = Scalar::Kind::Int;
  two.i = 2;
  two.d = 2.0;
  push_result(c, pow_scalar_exponent(c, c.tensor(0), two), InPlace);
}

// atan2(self, other) in the inputs' common floating dtype.
Tensor atan2_values(const OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  DType dtype = to_floating(result_type_of({&a, &b}));
  check_kinds(c, dtype, Kinds::Floating);
  return map_elements<Kinds::Floating, false>(
      dtype, [](auto y, auto x) { return std::atan2(y, x); }, kernel_input(a, dtype), kernel_input(b, dtype));
}

template <bool InPlace>
void atan2_op(OpCall& c) {
  push_result(c, atan2_values(c), InPlace);
}

// atan2.out(self, other, *, out): out does not take part in type promotion.
void atan2_out_op(OpCall& c) { c.push(write_out(c, c.tensor(2), atan2_values(c))); }

}  // namespace

void register_pow_ops(OpTable& t) {
  t.add("aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", pow_tensor_tensor<false>);
  t.add("aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", pow_tensor_scalar<false>);
  t.add("aten::pow.Scalar(Scalar self, Tensor exponent) -> Tensor", pow_scalar_base);
  t.add("aten::pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", pow_tensor_scalar<true>);
  t.add("aten::pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", pow_tensor_tensor<true>);
  t.add("aten::square(Tensor self) -> Tensor", square_op<false>);
  t.add("aten::square_(Tensor(a!) self) -> Tensor(a!)", square_op<true>);
  t.add("aten::atan2(Tensor self, Tensor other) -> Tensor", atan2_op<false>);
  t.add("aten::atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", atan2_op<true>);
  t.add("aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", atan2_out_op);
}

}  // namespace pt2web
