// Exact evaluation of SymExpr in fractions, and linear forms for
// solve_linear (sym_expr.h).
#include "program/sym_expr_internal.h"
#include "util/error.h"

namespace pt2web::sym_detail {
namespace {

// Evaluation in exact fractions; the public evaluate() insists on an integer.
class Evaluator {
 public:
  Evaluator(const SymExpr& root, const Lookup& lookup) : root_(root), lookup_(lookup) {}

  Frac eval(const SymExpr& e) const {
    switch (e.op()) {
      case Op::Integer:
      case Op::Rational: return number_of(e);
      case Op::Symbol: return symbol_value(e.name());
      case Op::Add: return fold(e, Frac::of(0), [](Frac a, Frac b) { return a + b; });
      case Op::Mul: return fold(e, Frac::of(1), [](Frac a, Frac b) { return a * b; });
      case Op::Pow: return power(arg(e, 0), arg(e, 1));
      case Op::Neg: return -arg(e, 0);
      case Op::FloorDiv:
      case Op::TrueDiv: return floor_divide(arg(e, 0), arg(e, 1));
      case Op::Mod: return python_mod(arg(e, 0), arg(e, 1));
      case Op::CeilDiv: return -floor_divide(-arg(e, 0), arg(e, 1));
      case Op::Max: return extreme(e, 1);
      case Op::Min: return extreme(e, -1);
      case Op::Eq: return truth(compare(arg(e, 0), arg(e, 1)) == 0);
      case Op::Ne: return truth(compare(arg(e, 0), arg(e, 1)) != 0);
      case Op::Lt: return truth(compare(arg(e, 0), arg(e, 1)) < 0);
      case Op::Le: return truth(compare(arg(e, 0), arg(e, 1)) <= 0);
      case Op::Gt: return truth(compare(arg(e, 0), arg(e, 1)) > 0);
      case Op::Ge: return truth(compare(arg(e, 0), arg(e, 1)) >= 0);
      case Op::And: return logical(e, true);
      case Op::Or: return logical(e, false);
      case Op::Not: return truth(arg(e, 0).is_zero());
      case Op::ToInt: return to_int(e.name(), arg(e, 0));
    }
    fail(ErrorCode::Internal, "unhandled SymExpr op ", static_cast<int>(e.op()));
  }

 private:
  const SymExpr& root_;
  const Lookup& lookup_;

  Frac symbol_value(const std::string& name) const {
    std::optional<int64_t> v = lookup_ ? lookup_(name) : std::nullopt;
    if (!v)
      fail(ErrorCode::BadInput, "symbol '", name, "' has no value while evaluating the size ",
           root_.to_string());
    return Frac::of(*v);
  }

  Frac arg(const SymExpr& e, size_t i) const {
    if (i >= e.args().size())
      fail(ErrorCode::Internal, "SymExpr node is missing argument ", i);
    return eval(*e.args()[i]);
  }

  template <typename F>
  Frac fold(const SymExpr& e, Frac start, F combine) const {
    for (const auto& a : e.args()) start = combine(start, eval(*a));
    return start;
  }

  Frac extreme(const SymExpr& e, int sign) const {
    Frac best = arg(e, 0);
    for (size_t i = 1; i < e.args().size(); ++i) {
      Frac v = eval(*e.args()[i]);
      if (compare(v, best) * sign > 0) best = v;
    }
    return best;
  }

  // TruncToInt rounds toward zero, RoundToInt half to even (Python's round),
  // the others toward -inf (FloorToInt, floor) or +inf (CeilToInt, ceiling).
  static Frac to_int(const std::string& how, const Frac& v) {
    const int64_t down = floor_of(v);
    if (v.is_integer()) return v;
    if (how == "FloorToInt" || how == "floor") return Frac::of(down);
    if (how == "CeilToInt" || how == "ceiling") return Frac::of(down + 1);
    if (how == "TruncToInt") return Frac::of(v.num < 0 ? down + 1 : down);
    const int cmp = compare(v - Frac::of(down), Frac{1, 2});  // RoundToInt
    if (cmp != 0) return Frac::of(cmp < 0 ? down : down + 1);
    return Frac::of(down % 2 == 0 ? down : down + 1);
  }

  Frac logical(const SymExpr& e, bool all) const {
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

Frac evaluate_exact(const SymExpr& e, const Lookup& lookup) { return Evaluator(e, lookup).eval(e); }

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
      return Linear{Frac(), Evaluator(e, Lookup()).eval(e), ""};
  }
}

}  // namespace pt2web::sym_detail
