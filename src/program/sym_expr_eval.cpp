// Evaluation of SymExpr (exact fractions, doubles for float functions), and linear forms for
// solve_linear (sym_expr.h).
#include <cmath>
#include <cstdlib>

#include "program/sym_expr_internal.h"
#include "util/error.h"

namespace pt2web::sym_detail {
namespace {

// Evaluation: exact fractions for integer and rational arithmetic, doubles
// once a float-valued function or literal is involved (sym_functions.h).
class Evaluator {
 public:
  Evaluator(const SymExpr& root, const Lookup& lookup) : root_(root), lookup_(lookup) {}

  SymValue eval(const SymExpr& e) const {
    switch (e.op()) {
      case Op::Integer:
      case Op::Rational: return SymValue::of(number_of(e));
      case Op::Float: return SymValue::of_float(std::strtod(e.name().c_str(), nullptr));
      case Op::Symbol: return SymValue::of(symbol_value(e.name()));
      case Op::Add: return fold(e, Frac::of(0), [](Frac a, Frac b) { return a + b; }, [](double a, double b) { return a + b; });
      case Op::Mul: return fold(e, Frac::of(1), [](Frac a, Frac b) { return a * b; }, [](double a, double b) { return a * b; });
      case Op::Pow: return pow(arg(e, 0), arg(e, 1));
      case Op::Neg: {
        SymValue v = arg(e, 0);
        return v.is_float ? SymValue::of_float(-v.real) : SymValue::of(-v.exact);
      }
      case Op::FloorDiv: return floor_div(arg(e, 0), arg(e, 1));
      case Op::TrueDiv: return true_div(arg(e, 0), arg(e, 1));
      case Op::Mod: return mod(arg(e, 0), arg(e, 1));
      case Op::CeilDiv: {
        SymValue q = floor_div(negate(arg(e, 0)), arg(e, 1));
        return negate(q);
      }
      case Op::Max: return extreme(e, 1);
      case Op::Min: return extreme(e, -1);
      case Op::Eq: return truth(order(arg(e, 0), arg(e, 1)) == 0);
      case Op::Ne: return truth(order(arg(e, 0), arg(e, 1)) != 0);
      case Op::Lt: return truth(order(arg(e, 0), arg(e, 1)) < 0);
      case Op::Le: return truth(order(arg(e, 0), arg(e, 1)) <= 0);
      case Op::Gt: return truth(order(arg(e, 0), arg(e, 1)) > 0);
      case Op::Ge: return truth(order(arg(e, 0), arg(e, 1)) >= 0);
      case Op::And: return logical(e, true);
      case Op::Or: return logical(e, false);
      case Op::Not: return truth(arg(e, 0).is_zero());
      case Op::ToInt: return SymValue::of(to_int(e.name(), arg(e, 0)));
      case Op::Function: {
        std::vector<SymValue> args;
        for (const auto& a : e.args()) args.push_back(eval(*a));
        return apply_function(e.name(), args);
      }
    }
    fail(ErrorCode::Internal, "unhandled SymExpr op ", static_cast<int>(e.op()));
  }

 private:
  const SymExpr& root_;
  const Lookup& lookup_;

  static SymValue truth(bool b) { return SymValue::of(Frac::of(b ? 1 : 0)); }
  static SymValue negate(const SymValue& v) { return v.is_float ? SymValue::of_float(-v.real) : SymValue::of(-v.exact); }

  Frac symbol_value(const std::string& name) const {
    std::optional<int64_t> v = lookup_ ? lookup_(name) : std::nullopt;
    if (!v)
      fail(ErrorCode::BadInput, "symbol '", name, "' has no value while evaluating the size ",
           root_.to_string());
    return Frac::of(*v);
  }

  SymValue arg(const SymExpr& e, size_t i) const {
    if (i >= e.args().size())
      fail(ErrorCode::Internal, "SymExpr node is missing argument ", i);
    return eval(*e.args()[i]);
  }

  template <typename F, typename G>
  SymValue fold(const SymExpr& e, Frac start, F exact, G real) const {
    SymValue acc = SymValue::of(start);
    for (const auto& a : e.args()) {
      SymValue v = eval(*a);
      if (acc.is_float || v.is_float) acc = SymValue::of_float(real(acc.as_double(), v.as_double()));
      else acc = SymValue::of(exact(acc.exact, v.exact));
    }
    return acc;
  }

  static SymValue pow(const SymValue& base, const SymValue& exponent) {
    if (!base.is_float && !exponent.is_float && exponent.exact.is_integer())
      return SymValue::of(power(base.exact, exponent.exact));
    return SymValue::of_float(std::pow(base.as_double(), exponent.as_double()));
  }

  static void check_divisor(const SymValue& b) {
    if (b.is_zero()) throw ArithError{"division by zero"};
  }

  // Python's a // b: exact for rationals; for floats the floor of the quotient.
  static SymValue floor_div(const SymValue& a, const SymValue& b) {
    check_divisor(b);
    if (!a.is_float && !b.is_float) return SymValue::of(floor_divide(a.exact, b.exact));
    return SymValue::of_float(std::floor(a.as_double() / b.as_double()));
  }

  // IntTrueDiv / FloatTrueDiv: Python's a / b, a float.
  static SymValue true_div(const SymValue& a, const SymValue& b) {
    check_divisor(b);
    return SymValue::of_float(a.as_double() / b.as_double());
  }

  // Python's a % b: the result takes the divisor's sign.
  static SymValue mod(const SymValue& a, const SymValue& b) {
    check_divisor(b);
    if (!a.is_float && !b.is_float) return SymValue::of(python_mod(a.exact, b.exact));
    double r = std::fmod(a.as_double(), b.as_double());
    if (r != 0 && ((r < 0) != (b.as_double() < 0))) r += b.as_double();
    return SymValue::of_float(r);
  }

  static int order(const SymValue& a, const SymValue& b) {
    if (!a.is_float && !b.is_float) return compare(a.exact, b.exact);
    double x = a.as_double(), y = b.as_double();
    return x < y ? -1 : (x > y ? 1 : 0);
  }

  SymValue extreme(const SymExpr& e, int sign) const {
    SymValue best = arg(e, 0);
    for (size_t i = 1; i < e.args().size(); ++i) {
      SymValue v = eval(*e.args()[i]);
      if (order(v, best) * sign > 0) best = v;
    }
    return best;
  }

  // TruncToInt rounds toward zero, RoundToInt half to even (Python's round),
  // the others toward -inf (FloorToInt, floor) or +inf (CeilToInt, ceiling).
  static Frac to_int(const std::string& how, const SymValue& value) {
    const char* mode = how == "FloorToInt" || how == "floor"     ? "floor"
                       : how == "CeilToInt" || how == "ceiling" ? "ceil"
                       : how == "TruncToInt"                    ? "trunc"
                                                                : "round";
    if (value.is_float) return round_to_integer(value.real, mode);
    const Frac& v = value.exact;
    const int64_t down = floor_of(v);
    if (v.is_integer()) return v;
    if (std::string(mode) == "floor") return Frac::of(down);
    if (std::string(mode) == "ceil") return Frac::of(down + 1);
    if (std::string(mode) == "trunc") return Frac::of(v.num < 0 ? down + 1 : down);
    const int cmp = compare(v - Frac::of(down), Frac{1, 2});
    if (cmp != 0) return Frac::of(cmp < 0 ? down : down + 1);
    return Frac::of(down % 2 == 0 ? down : down + 1);
  }

  SymValue logical(const SymExpr& e, bool all) const {
    for (const auto& a : e.args())
      if (eval(*a).is_zero() == all) return truth(!all);
    return truth(all);
  }
};

// ---------------------------------------------------------------------------
// Linear form a*sym + b, for solve_linear.


bool has_symbols(const SymExpr& e) {
  if (e.op() == Op::Symbol) return true;
  for (const auto& a : e.args())
    if (has_symbols(*a)) return true;
  return false;
}



}  // namespace

SymValue evaluate_value(const SymExpr& e, const Lookup& lookup) { return Evaluator(e, lookup).eval(e); }

std::optional<Linear> linear_form(const SymExpr& e) {
  switch (e.op()) {
    case Op::Integer:
    case Op::Rational: return Linear{Frac(), number_of(e), ""};
    case Op::Symbol: return Linear{Frac::of(1), Frac(), e.name()};
    case Op::Neg: {
      auto inner = linear_form(*e.args()[0]);
      if (!inner) return std::nullopt;
      return Linear{-inner->a, -inner->b, inner->sym};
    }
    case Op::Add: {
      Linear sum;
      for (const auto& t : e.args()) {
        auto l = linear_form(*t);
        if (!l) return std::nullopt;
        if (!l->a.is_zero()) {
          if (!sum.sym.empty() && sum.sym != l->sym) return std::nullopt;
          sum.sym = l->sym;
        }
        sum.a = sum.a + l->a;
        sum.b = sum.b + l->b;
      }
      return sum;
    }
    case Op::Mul: {
      Linear product{Frac(), Frac::of(1), ""};
      for (const auto& f : e.args()) {
        auto l = linear_form(*f);
        if (!l) return std::nullopt;
        if (!product.a.is_zero() && !l->a.is_zero()) return std::nullopt;  // sym * sym
        Linear next{product.a * l->b + l->a * product.b, product.b * l->b,
                    l->a.is_zero() ? product.sym : l->sym};
        product = next;
      }
      return product;
    }
    default:
      if (has_symbols(e)) return std::nullopt;
      SymValue v = Evaluator(e, Lookup()).eval(e);
      if (v.is_float) return std::nullopt;
      return Linear{Frac(), v.exact, ""};
  }
}

}  // namespace pt2web::sym_detail
