// One-input elementwise math: exponentials and logarithms, powers and roots,
// trigonometric and hyperbolic functions, erf and friends (integer inputs give
// float32, as ATen's "unary float" ops); abs, neg, rounding, sign (dtype
// kept); isnan/isinf/isfinite/... (bool results); nan_to_num, bitwise_not and
// logical_not. Every op that ATen has in place is registered in both forms.
#include <cmath>
#include <limits>
#include <string>

#include "ops/complex/complex_arithmetic.h"
#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

// The inverse error function: a polynomial first guess (after M. Giles,
// "Approximating the erfinv function"), refined by Newton steps on erf.
double erfinv_double(double y) {
  if (std::isnan(y) || y < -1.0 || y > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1.0) return std::numeric_limits<double>::infinity();
  if (y == -1.0) return -std::numeric_limits<double>::infinity();
  double w = -std::log((1.0 - y) * (1.0 + y));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double k : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      p = k + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    for (double k : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682})
      p = k + p * w;
  }
  double x = p * y;
  const double two_over_sqrt_pi = 1.1283791670955126;
  for (int step = 0; step < 3; ++step) {
    double slope = two_over_sqrt_pi * std::exp(-x * x);
    if (slope == 0.0) break;
    x -= (std::erf(x) - y) / slope;
  }
  return x;
}

// ---- floating ops: integer and bool inputs compute (and return) float32 ----

#define PT2WEB_FLOAT_FN(Name, expr)                 \
  struct Name {                                     \
    template <typename M>                           \
    M operator()(M x) const {                       \
      return static_cast<M>(expr);                  \
    }                                               \
  }

PT2WEB_FLOAT_FN(Exp, std::exp(x));
PT2WEB_FLOAT_FN(Exp2, std::exp2(x));
PT2WEB_FLOAT_FN(Expm1, std::expm1(x));
PT2WEB_FLOAT_FN(Log, std::log(x));
PT2WEB_FLOAT_FN(Log2, std::log2(x));
PT2WEB_FLOAT_FN(Log10, std::log10(x));
PT2WEB_FLOAT_FN(Log1p, std::log1p(x));
PT2WEB_FLOAT_FN(Sqrt, std::sqrt(x));
PT2WEB_FLOAT_FN(Rsqrt, M(1) / std::sqrt(x));
PT2WEB_FLOAT_FN(Reciprocal, M(1) / x);
PT2WEB_FLOAT_FN(Sin, std::sin(x));
PT2WEB_FLOAT_FN(Cos, std::cos(x));
PT2WEB_FLOAT_FN(Tan, std::tan(x));
PT2WEB_FLOAT_FN(Asin, std::asin(x));
PT2WEB_FLOAT_FN(Acos, std::acos(x));
PT2WEB_FLOAT_FN(Atan, std::atan(x));
PT2WEB_FLOAT_FN(Sinh, std::sinh(x));
PT2WEB_FLOAT_FN(Cosh, std::cosh(x));
PT2WEB_FLOAT_FN(Asinh, std::asinh(x));
PT2WEB_FLOAT_FN(Acosh, std::acosh(x));
PT2WEB_FLOAT_FN(Atanh, std::atanh(x));
PT2WEB_FLOAT_FN(Erf, std::erf(x));
PT2WEB_FLOAT_FN(Erfc, std::erfc(x));
PT2WEB_FLOAT_FN(Erfinv, erfinv_double(static_cast<double>(x)));

#undef PT2WEB_FLOAT_FN

template <typename Fn, bool InPlace>
void floating_unary(OpCall& c) {
  const Tensor& x = c.tensor(0);
  DType dtype = to_floating(x.dtype());
  check_kinds(c, dtype, Kinds::Floating);
  push_result(c, map_elements<Kinds::Floating, false>(dtype, Fn{}, kernel_input(operand(x), dtype)), InPlace);
}

// ---- ops that keep the dtype ----

struct Abs {
  template <typename M>
  M operator()(M x) const {
    if constexpr (std::is_floating_point<M>::value) return std::abs(x);
    else if constexpr (std::is_signed<M>::value) return x < 0 ? wrapping_sub(M(0), x) : x;
    else return x;
  }
};

struct Neg {
  template <typename M>
  M operator()(M x) const { return wrapping_sub(M(0), x); }
};

// Rounding leaves integers as they are.
#define PT2WEB_ROUNDING_FN(Name, fn)                                   \
  struct Name {                                                        \
    template <typename M>                                              \
    M operator()(M x) const {                                          \
      if constexpr (std::is_floating_point<M>::value) return fn(x);    \
      else return x;                                                   \
    }                                                                  \
  }

PT2WEB_ROUNDING_FN(Floor, std::floor);
PT2WEB_ROUNDING_FN(Ceil, std::ceil);
PT2WEB_ROUNDING_FN(Trunc, std::trunc);
PT2WEB_ROUNDING_FN(RoundHalfEven, std::nearbyint);  // the default rounding mode rounds half to even

#undef PT2WEB_ROUNDING_FN

struct Frac {
  template <typename M>
  M operator()(M x) const { return x - std::trunc(x); }
};

// sign(NaN) is 0, as ATen's (0 < x) - (x < 0).
struct Sign {
  template <typename M>
  M operator()(M x) const {
    if constexpr (std::is_same<M, bool>::value) return x;
    else return static_cast<M>(static_cast<int>(M(0) < x) - static_cast<int>(x < M(0)));
  }
};

struct BitwiseNot {
  template <typename M>
  M operator()(M x) const {
    if constexpr (std::is_same<M, bool>::value) return !x;
    else if constexpr (std::is_integral<M>::value) return static_cast<M>(~x);
    else return x;  // unreachable: floats are rejected by the Integral kinds
  }
};

template <typename Fn, Kinds K, bool InPlace>
void same_dtype_unary(OpCall& c) {
  const Tensor& x = c.tensor(0);
  check_kinds(c, x.dtype(), K);
  push_result(c, map_elements<K, false>(x.dtype(), Fn{}, kernel_input(operand(x), x.dtype())), InPlace);
}

// abs of a complex tensor is its real magnitude (never in place).
template <bool InPlace>
void abs_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (!is_complex(x.dtype())) return same_dtype_unary<Abs, Kinds::Numeric, InPlace>(c);
  if (InPlace) fail(ErrorCode::BadInput, c.where(), "In-place abs is not supported for complex tensors.");
  c.push(complex_abs(x));
}

template <bool InPlace>
void neg_op(OpCall& c) {
  if (is_complex(c.tensor(0).dtype())) return push_result(c, complex_neg(c.tensor(0)), InPlace);
  if (c.tensor(0).dtype() == DType::Bool)
    fail(ErrorCode::BadInput, c.where(),
         "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
         "`~` or `logical_not()` operator instead.");
  same_dtype_unary<Neg, Kinds::Numeric, InPlace>(c);
}

// round(x, decimals): scales by 10^|decimals|, rounds half to even, scales back.
template <bool InPlace>
void round_decimals_op(OpCall& c) {
  int64_t decimals = c.int_arg(1);
  if (decimals == 0) return same_dtype_unary<RoundHalfEven, Kinds::Numeric, InPlace>(c);
  const Tensor& x = c.tensor(0);
  check_kinds(c, x.dtype(), Kinds::Floating);
  bool negative = decimals < 0;
  double scale = std::pow(10.0, negative ? -static_cast<double>(decimals) : static_cast<double>(decimals));
  Tensor out = map_elements<Kinds::Floating, false>(x.dtype(), [scale, negative](auto v) {
    using M = decltype(v);
    M s = static_cast<M>(scale);
    return negative ? std::nearbyint(v / s) * s : std::nearbyint(v * s) / s;
  }, kernel_input(operand(x), x.dtype()));
  push_result(c, out, InPlace);
}

// ---- predicates (bool results) ----

#define PT2WEB_PREDICATE_FN(Name, float_expr, int_expr)                   \
  struct Name {                                                           \
    template <typename M>                                                 \
    bool operator()(M x) const {                                          \
      if constexpr (std::is_floating_point<M>::value) return float_expr;  \
      else return int_expr;                                               \
    }                                                                     \
  }

PT2WEB_PREDICATE_FN(IsNan, std::isnan(x), false);
PT2WEB_PREDICATE_FN(IsInf, std::isinf(x), false);
PT2WEB_PREDICATE_FN(IsFinite, std::isfinite(x), true);
PT2WEB_PREDICATE_FN(IsPosInf, std::isinf(x) && x > 0, false);
PT2WEB_PREDICATE_FN(IsNegInf, std::isinf(x) && x < 0, false);
PT2WEB_PREDICATE_FN(SignBit, std::signbit(x), x < M(0));
PT2WEB_PREDICATE_FN(LogicalNot, !(x != M(0)), !(x != M(0)));

#undef PT2WEB_PREDICATE_FN

template <typename Fn>
Tensor predicate(const Tensor& x) {
  return map_elements<Kinds::All, true>(x.dtype(), Fn{}, kernel_input(operand(x), x.dtype()));
}

template <typename Fn>
void predicate_op(OpCall& c) {
  check_kinds(c, c.tensor(0).dtype(), Kinds::All);
  c.push(predicate<Fn>(c.tensor(0)));
}

template <bool InPlace>
void logical_not_op(OpCall& c) {
  check_kinds(c, c.tensor(0).dtype(), Kinds::All);
  push_result(c, predicate<LogicalNot>(c.tensor(0)), InPlace);
}

// The largest finite value of a floating dtype (nan_to_num's default for +inf).
double max_finite(DType dtype) {
  switch (dtype) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.3895313892515355e38;
    case DType::Float32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

// nan_to_num: NaN -> nan (0 by default), +-inf -> posinf/neginf (the dtype's
// largest finite values by default); integer and bool tensors are copied.
template <bool InPlace>
void nan_to_num_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  check_kinds(c, x.dtype(), Kinds::All);
  if (!is_floating(x.dtype())) {
    push_result(c, x.clone(), InPlace);
    return;
  }
  double nan = c.optional_double(1).value_or(0.0);
  double posinf = c.optional_double(2).value_or(max_finite(x.dtype()));
  double neginf = c.optional_double(3).value_or(-max_finite(x.dtype()));
  Tensor out = map_elements<Kinds::Floating, false>(x.dtype(), [=](auto v) {
    using M = decltype(v);
    if (std::isnan(v)) return static_cast<M>(nan);
    if (std::isinf(v)) return static_cast<M>(v > 0 ? posinf : neginf);
    return v;
  }, kernel_input(operand(x), x.dtype()));
  push_result(c, out, InPlace);
}

// ---- registration: "name" gives aten::name and, when ATen has it, aten::name_ ----

std::string functional_schema(const std::string& name, const std::string& extra = "") {
  return "aten::" + name + "(Tensor self" + extra + ") -> Tensor";
}
std::string in_place_schema(const std::string& name, const std::string& extra = "") {
  return "aten::" + name + "_(Tensor(a!) self" + extra + ") -> Tensor(a!)";
}

template <typename Fn>
void add_floating(OpTable& t, const std::string& name) {
  t.add(functional_schema(name), floating_unary<Fn, false>);
  t.add(in_place_schema(name), floating_unary<Fn, true>);
}

template <typename Fn, Kinds K>
void add_same_dtype(OpTable& t, const std::string& name) {
  t.add(functional_schema(name), same_dtype_unary<Fn, K, false>);
  t.add(in_place_schema(name), same_dtype_unary<Fn, K, true>);
}

}  // namespace

void register_unary_ops(OpTable& t) {
  add_floating<Exp>(t, "exp");
  add_floating<Exp2>(t, "exp2");
  add_floating<Expm1>(t, "expm1");
  add_floating<Log>(t, "log");
  add_floating<Log2>(t, "log2");
  add_floating<Log10>(t, "log10");
  add_floating<Log1p>(t, "log1p");
  add_floating<Sqrt>(t, "sqrt");
  add_floating<Rsqrt>(t, "rsqrt");
  add_floating<Reciprocal>(t, "reciprocal");
  add_floating<Sin>(t, "sin");
  add_floating<Cos>(t, "cos");
  add_floating<Tan>(t, "tan");
  add_floating<Asin>(t, "asin");
  add_floating<Acos>(t, "acos");
  add_floating<Atan>(t, "atan");
  add_floating<Sinh>(t, "sinh");
  add_floating<Cosh>(t, "cosh");
  add_floating<Asinh>(t, "asinh");
  add_floating<Acosh>(t, "acosh");
  add_floating<Atanh>(t, "atanh");
  add_floating<Erf>(t, "erf");
  add_floating<Erfc>(t, "erfc");
  add_floating<Erfinv>(t, "erfinv");

  t.add(functional_schema("abs"), abs_op<false>);
  t.add(in_place_schema("abs"), abs_op<true>);
  t.add(functional_schema("neg"), neg_op<false>);
  t.add(in_place_schema("neg"), neg_op<true>);
  add_same_dtype<Floor, Kinds::Numeric>(t, "floor");
  add_same_dtype<Ceil, Kinds::Numeric>(t, "ceil");
  add_same_dtype<Trunc, Kinds::Numeric>(t, "trunc");
  add_same_dtype<Trunc, Kinds::Numeric>(t, "fix");
  add_same_dtype<RoundHalfEven, Kinds::Numeric>(t, "round");
  t.add("aten::round.decimals(Tensor self, *, int decimals) -> Tensor", round_decimals_op<false>);
  t.add("aten::round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)", round_decimals_op<true>);
  add_same_dtype<Frac, Kinds::Floating>(t, "frac");
  add_same_dtype<Sign, Kinds::All>(t, "sign");
  add_same_dtype<Sign, Kinds::All>(t, "sgn");
  add_same_dtype<BitwiseNot, Kinds::Integral>(t, "bitwise_not");

  t.add(functional_schema("isnan"), predicate_op<IsNan>);
  t.add(functional_schema("isinf"), predicate_op<IsInf>);
  t.add(functional_schema("isfinite"), predicate_op<IsFinite>);
  t.add(functional_schema("isposinf"), predicate_op<IsPosInf>);
  t.add(functional_schema("isneginf"), predicate_op<IsNegInf>);
  t.add(functional_schema("signbit"), predicate_op<SignBit>);
  t.add(functional_schema("logical_not"), logical_not_op<false>);
  t.add(in_place_schema("logical_not"), logical_not_op<true>);

  const std::string nan_args = ", float? nan=None, float? posinf=None, float? neginf=None";
  t.add(functional_schema("nan_to_num", nan_args), nan_to_num_op<false>);
  t.add(in_place_schema("nan_to_num", nan_args), nan_to_num_op<true>);
}

}  // namespace pt2web
