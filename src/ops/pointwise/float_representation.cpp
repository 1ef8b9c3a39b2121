// Ops on the representation and scale of floating values: frexp (mantissa
// and int32 exponent), and the compositions ATen defines in terms of other
// operators, run through the table so they share its promotion: ldexp
// (self * 2^other), float_power (pow in float64), deg2rad and rad2deg
// (integer and bool inputs first become float32, then one multiply).
#include <cmath>

#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"
#include "ops/op_compose.h"

namespace pt2web {

namespace {

using namespace elementwise;

void frexp_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (!is_floating(x.dtype()))
    fail(ErrorCode::BadInput, c.where(), "torch.frexp() only supports floating-point dtypes");
  Tensor src = x.contiguous();
  Tensor mantissa = Tensor::empty(x.dtype(), x.sizes());
  Tensor exponent = Tensor::empty(DType::Int32, x.sizes());
  visit_floating_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = src.data<T>();
    T* m = mantissa.data<T>();
    int32_t* e = exponent.data<int32_t>();
    for (int64_t i = 0; i < src.numel(); ++i) {
      int power = 0;
      // In double for every dtype: exact (a double holds every narrower
      // value, and a mantissa in [0.5, 1) keeps its bits), and it avoids
      // frexpf, which clang 19's wasm64 link of Emscripten 3.1.69's libc lacks.
      m[i] = convert_element<T>(std::frexp(static_cast<double>(in[i]), &power));
      e[i] = power;
    }
  });
  c.push(mantissa);
  c.push(exponent);
}

Tensor ldexp_values(const OpCall& c) {
  Tensor scale = run_op1("aten::pow.Scalar", {Value::from_double(2.0), arg(c.tensor(1))});
  return run_op1("aten::mul.Tensor", {arg(c.tensor(0)), arg(scale)});
}

template <bool InPlace>
void ldexp_op(OpCall& c) {
  push_result(c, ldexp_values(c), InPlace);
}

// float_power: base and exponent in float64 (numbers as doubles).
Value as_float64(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  if (v.is_tensor()) return arg(c.tensor(index).to(DType::Float64));
  return Value::from_double(c.scalar(index).to_double());
}

template <bool InPlace>
void float_power_op(OpCall& c) {
  const bool base_is_tensor = c.arg(0).is_tensor(), exponent_is_tensor = c.arg(1).is_tensor();
  const char* pow_name = !base_is_tensor      ? "aten::pow.Scalar"
                         : exponent_is_tensor ? "aten::pow.Tensor_Tensor"
                                              : "aten::pow.Tensor_Scalar";
  if (InPlace && c.tensor(0).dtype() != DType::Float64)
    fail(ErrorCode::BadInput, c.where(), "the base given to float_power_ has dtype ", dtype_name(c.tensor(0).dtype()),
         " but the operation's result requires dtype float64");
  push_result(c, run_op1(pow_name, {as_float64(c, 0), as_float64(c, 1)}), InPlace);
}

// x * factor, with integer and bool x as float32 first.
template <bool InPlace>
void angle_scale(OpCall& c, double factor) {
  const Tensor& x = c.tensor(0);
  if (is_complex(x.dtype())) fail(ErrorCode::Unsupported, c.where(), "complex inputs are not supported");
  Tensor input = is_floating(x.dtype()) ? x : x.to(DType::Float32);
  push_result(c, run_op1("aten::mul.Scalar", {arg(input), Value::from_double(factor)}), InPlace);
}

constexpr double kPi = 3.14159265358979323846;

template <bool InPlace>
void deg2rad_op(OpCall& c) { angle_scale<InPlace>(c, kPi / 180.0); }

template <bool InPlace>
void rad2deg_op(OpCall& c) { angle_scale<InPlace>(c, 180.0 / kPi); }

}  // namespace

void register_float_representation_ops(OpTable& t) {
  t.add("aten::frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", frexp_op);
  t.add("aten::ldexp.Tensor(Tensor self, Tensor other) -> Tensor", ldexp_op<false>);
  t.add("aten::ldexp_(Tensor(a!) self, Tensor other) -> Tensor(a!)", ldexp_op<true>);
  t.add("aten::float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", float_power_op<false>);
  t.add("aten::float_power.Scalar(Scalar self, Tensor exponent) -> Tensor", float_power_op<false>);
  t.add("aten::float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", float_power_op<false>);
  t.add("aten::float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", float_power_op<true>);
  t.add("aten::float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", float_power_op<true>);
  t.add("aten::deg2rad(Tensor self) -> Tensor", deg2rad_op<false>);
  t.add("aten::deg2rad_(Tensor(a!) self) -> Tensor(a!)", deg2rad_op<true>);
  t.add("aten::rad2deg(Tensor self) -> Tensor", rad2deg_op<false>);
  t.add("aten::rad2deg_(Tensor(a!) self) -> Tensor(a!)", rad2deg_op<true>);
}

}  // namespace pt2web
