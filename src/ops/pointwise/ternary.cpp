// Three-input arithmetic: addcmul, addcdiv and lerp (Scalar and Tensor
// weights), with their in-place forms.
#include <cmath>

#include "ops/pointwise/pointwise.h"
#include "ops/elementwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

bool is_integral_or_bool(DType d) { return d == DType::Bool || is_integral(d); }

// self + value * tensor1 * tensor2 (Divide: self + value * tensor1 / tensor2).
template <bool Divide, bool InPlace>
void addc_op(OpCall& c) {
  Operand self = operand(c, 0), t1 = operand(c, 1), t2 = operand(c, 2);
  Scalar value = c.scalar(3);
  if (Divide && is_integral_or_bool(result_type_of({&t1})) && is_integral_or_bool(result_type_of({&t2})))
    fail(ErrorCode::BadInput, c.where(),
         "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a true "
         "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
         "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
         "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior can be implemented with "
         "true division as (input + value * tensor1 / tensor2).");
  DType dtype = result_type_of({&self, &t1, &t2});
  check_kinds(c, dtype, Kinds::Numeric);
  if (!is_floating(dtype) && value.kind == Scalar::Kind::Double)
    fail(ErrorCode::BadInput, c.where(), "For integral input tensors, argument value must not be a floating point number.");
  Tensor out = map_elements<Kinds::All, false>(dtype, [&value](auto s, auto a, auto b) {
    using M = decltype(s);
    M v = scalar_as<M>(value);
    if constexpr (Divide) return s + v * a / b;
    else return wrapping_add(s, wrapping_mul(wrapping_mul(v, a), b));
  }, kernel_input(self, dtype), kernel_input(t1, dtype), kernel_input(t2, dtype));
  push_result(c, out, InPlace);
}

// lerp keeps self's dtype: end (and a tensor weight) must match it.
void check_lerp_dtype(const OpCall& c, const Tensor& self, const Tensor& other, const char* what) {
  if (other.dtype() != self.dtype())
    fail(ErrorCode::BadInput, c.where(), "expected dtype ", dtype_name(self.dtype()), " for `", what,
         "` but got dtype ", dtype_name(other.dtype()));
}

// Interpolates from the nearer end so weight 0 gives self and 1 gives end exactly.
template <typename M>
M lerp_element(M self, M end, M weight) {
  return std::abs(weight) < M(0.5) ? self + weight * (end - self) : end - (end - self) * (M(1) - weight);
}

template <bool InPlace>
void lerp_scalar(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& end = c.tensor(1);
  check_lerp_dtype(c, self, end, "end");
  check_kinds(c, self.dtype(), Kinds::Floating);
  DType dtype = self.dtype();
  Tensor weight = kernel_input(operand(c.scalar(2)), dtype, NumberRounding::Opmath);
  Tensor out = map_elements<Kinds::Floating, false>(
      dtype, [](auto s, auto e, auto w) { return lerp_element(s, e, w); }, kernel_input(operand(self), dtype),
      kernel_input(operand(end), dtype), weight);
  push_result(c, out, InPlace);
}

template <bool InPlace>
void lerp_tensor(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& end = c.tensor(1);
  const Tensor& weight = c.tensor(2);
  check_lerp_dtype(c, self, end, "end");
  check_lerp_dtype(c, self, weight, "weight");
  check_kinds(c, self.dtype(), Kinds::Floating);
  DType dtype = self.dtype();
  Tensor out = map_elements<Kinds::Floating, false>(
      dtype, [](auto s, auto e, auto w) { return lerp_element(s, e, w); }, kernel_input(operand(self), dtype),
      kernel_input(operand(end), dtype), kernel_input(operand(weight), dtype));
  push_result(c, out, InPlace);
}

}  // namespace

void register_ternary_ops(OpTable& t) {
  t.add("aten::addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
        addc_op<false, false>);
  t.add("aten::addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)",
        addc_op<false, true>);
  t.add("aten::addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
        addc_op<true, false>);
  t.add("aten::addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)",
        addc_op<true, true>);
  t.add("aten::lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", lerp_scalar<false>);
  t.add("aten::lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", lerp_tensor<false>);
  t.add("aten::lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", lerp_scalar<true>);
  t.add("aten::lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", lerp_tensor<true>);
}

}  // namespace pt2web
