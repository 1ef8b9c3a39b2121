// The values symbolic expressions evaluate to, and the named functions of
// torch/utils/_sympy/functions.py and sympy that a SymExpr holds as
// Op::Function nodes (ToFloat, TruncToFloat, FloatPow, RoundDecimal, Where,
// LShift, RShift, BitwiseFn_bitwise_and/or, Abs, OpaqueUnaryFn_*,
// IsNonOverlappingAndDenseIndicator), evaluated with the semantics torch
// gives them at run time (Python ints and floats).
//
// Ownership: plain values. Errors: apply_function throws ArithError for a
// value outside a function's domain (a negative shift, a float where an
// integer is needed); is_known_function tells the parser which names exist.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "program/sym_frac.h"

namespace pt2web::sym_detail {

// An exact rational (Python int, or sympy's Rational) or a double (Python float).
struct SymValue {
  bool is_float = false;
  Frac exact;
  double real = 0;

  static SymValue of(const Frac& f) {
    SymValue v;
    v.exact = f;
    return v;
  }
  static SymValue of_float(double d) {
    SymValue v;
    v.is_float = true;
    v.real = d;
    return v;
  }
  double as_double() const { return is_float ? real : static_cast<double>(exact.num) / static_cast<double>(exact.den); }
  bool is_zero() const { return is_float ? real == 0 : exact.is_zero(); }
};

// Whether `name` is a function apply_function evaluates, and how many
// arguments it takes (max_args: SIZE_MAX for any number).
bool is_known_function(const std::string& name, size_t* min_args = nullptr, size_t* max_args = nullptr);

SymValue apply_function(const std::string& name, const std::vector<SymValue>& args);

// An exact integer from a double rounded by `how` ("floor", "ceil", "trunc",
// "round": half to even), or ArithError when it is not finite or beyond int64.
Frac round_to_integer(double value, const std::string& how);

}  // namespace pt2web::sym_detail
