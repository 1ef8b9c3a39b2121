// Building SymExpr nodes with the light canonicalization the symbolic-size
// code relies on (see sym_expr.cpp): numbers are Integer or Rational nodes;
// Add and Mul are flat and hold at most one number, first in a Mul;
// subtraction and negation are a Mul by -1, as sympy does. Header-only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "program/sym_expr.h"

#include "program/sym_frac.h"

namespace pt2web::sym_detail {

using ExprPtr = std::shared_ptr<const SymExpr>;
using Op = SymExpr::Op;

inline ExprPtr make_node(Op op, std::vector<ExprPtr> args, std::string name = "") {
  return std::make_shared<SymExpr>(op, 0, std::move(name), std::move(args));
}

inline ExprPtr make_number(const Frac& f, std::string spelling = "") {
  if (f.is_integer()) return std::make_shared<SymExpr>(Op::Integer, f.num, std::move(spelling),
                                                       std::vector<ExprPtr>{});
  return std::make_shared<SymExpr>(Op::Rational, f.num, std::move(spelling), std::vector<ExprPtr>{},
                                   f.den);
}

inline bool is_number(const SymExpr& e) { return e.op() == Op::Integer || e.op() == Op::Rational; }

inline Frac number_of(const SymExpr& e) {
  return e.op() == Op::Rational ? Frac::of(e.value(), e.denominator()) : Frac::of(e.value());
}

inline ExprPtr make_add(const std::vector<ExprPtr>& terms) {
  std::vector<ExprPtr> flat;
  Frac constant;
  auto take = [&](const ExprPtr& t, auto& self) -> void {
    if (t->op() == Op::Add) {
      for (const auto& a : t->args()) self(a, self);
    } else if (is_number(*t)) {
      constant = constant + number_of(*t);
    } else {
      flat.push_back(t);
    }
  };
  for (const auto& t : terms) take(t, take);
  if (flat.empty()) return make_number(constant);
  if (!constant.is_zero()) flat.push_back(make_number(constant));
  if (flat.size() == 1) return flat[0];
  return make_node(Op::Add, std::move(flat));
}

inline ExprPtr make_mul(const std::vector<ExprPtr>& factors) {
  std::vector<ExprPtr> flat;
  Frac coefficient = Frac::of(1);
  auto take = [&](const ExprPtr& f, auto& self) -> void {
    if (f->op() == Op::Mul) {
      for (const auto& a : f->args()) self(a, self);
    } else if (f->op() == Op::Neg) {
      coefficient = -coefficient;
      self(f->args()[0], self);
    } else if (is_number(*f)) {
      coefficient = coefficient * number_of(*f);
    } else {
      flat.push_back(f);
    }
  };
  for (const auto& f : factors) take(f, take);
  if (coefficient.is_zero() || flat.empty()) return make_number(coefficient);
  if (coefficient == Frac::of(1) && flat.size() == 1) return flat[0];
  if (coefficient != Frac::of(1)) flat.insert(flat.begin(), make_number(coefficient));
  return make_node(Op::Mul, std::move(flat));
}

inline ExprPtr make_negative(const ExprPtr& e) { return make_mul({make_number(Frac::of(-1)), e}); }

inline ExprPtr make_pow(const ExprPtr& base, const ExprPtr& exponent) {
  if (exponent->op() == Op::Integer) {
    // Integer powers distribute the way sympy evaluates them:
    // numbers fold, (x**a)**n = x**(a*n), (x*y)**n = x**n * y**n.
    if (is_number(*base)) return make_number(power(number_of(*base), number_of(*exponent)));
    if (base->op() == Op::Pow)
      return make_pow(base->args()[0], make_mul({base->args()[1], exponent}));
    if (base->op() == Op::Mul) {
      std::vector<ExprPtr> powers;
      for (const auto& f : base->args()) powers.push_back(make_pow(f, exponent));
      return make_mul(powers);
    }
  }
  if (exponent->op() == Op::Integer && exponent->value() == 1) return base;
  if (exponent->op() == Op::Integer && exponent->value() == 0) return make_number(Frac::of(1));
  return make_node(Op::Pow, {base, exponent});
}

inline ExprPtr make_divide(const ExprPtr& a, const ExprPtr& b) {
  return make_mul({a, make_pow(b, make_number(Frac::of(-1)))});
}

// Numeric coefficient and the remaining factors of a product-like term.
inline std::pair<Frac, std::vector<ExprPtr>> split_coefficient(const ExprPtr& e) {
  if (is_number(*e)) return {number_of(*e), {}};
  if (e->op() == Op::Neg) {
    auto inner = split_coefficient(e->args()[0]);
    return {-inner.first, inner.second};
  }
  if (e->op() != Op::Mul) return {Frac::of(1), {e}};
  Frac c = Frac::of(1);
  std::vector<ExprPtr> rest;
  for (const auto& a : e->args()) {
    if (is_number(*a))
      c = c * number_of(*a);
    else
      rest.push_back(a);
  }
  return {c, rest};
}

inline bool same(const SymExpr& a, const SymExpr& b) {
  if (a.op() != b.op() || a.value() != b.value() || a.denominator() != b.denominator())
    return false;
  if ((a.op() == Op::Symbol || a.op() == Op::Float || a.op() == Op::Function) && a.name() != b.name())
    return false;
  if (a.args().size() != b.args().size()) return false;
  for (size_t i = 0; i < a.args().size(); ++i)
    if (!same(*a.args()[i], *b.args()[i])) return false;
  return true;
}


}  // namespace pt2web::sym_detail
