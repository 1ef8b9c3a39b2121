// Printing SymExpr the way sympy's StrPrinter (plus torch's FloorDiv
// printer) does, so sizes read exactly as in torch's graph dumps.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "program/sym_expr_internal.h"

namespace pt2web::sym_detail {
namespace {

// Printing, following sympy's StrPrinter plus torch's FloorDiv printer, so
// that sizes read exactly as in torch's graph dumps ("s0 - 1", "2*s0",
// "((s0//2)) + 1").

// sympy precedence levels (sympy.printing.precedence).
constexpr double kPrecOr = 20, kPrecAnd = 30, kPrecRelational = 35, kPrecTorchFn = 35,
                 kPrecBitOr = 36, kPrecBitAnd = 38, kPrecAdd = 40, kPrecMul = 50,
                 kPrecPow = 60, kPrecFunc = 70, kPrecNot = 100, kPrecAtom = 1000;

std::string print(const ExprPtr& e);

// Turns Neg(x) into the Mul(-1, x) that sympy would hold.
ExprPtr canonical(const ExprPtr& e) {
  if (e->op() != Op::Neg) return e;
  try {
    return make_negative(e->args()[0]);
  } catch (const ArithError&) {
    return e;
  }
}

bool is_torch_function(Op op) { return op == Op::FloorDiv || op == Op::Mod || op == Op::TrueDiv; }

double precedence(const ExprPtr& raw) {
  ExprPtr e = canonical(raw);
  switch (e->op()) {
    case Op::Integer: return e->value() < 0 ? kPrecAdd : kPrecAtom;
    case Op::Rational: return e->value() < 0 ? kPrecAdd : kPrecMul;
    case Op::Symbol: return kPrecAtom;
    case Op::Add: return kPrecAdd;
    case Op::Mul: {
      for (const auto& a : e->args())
        if (is_torch_function(a->op())) return kPrecMul;
      return split_coefficient(e).first.num < 0 ? kPrecAdd : kPrecMul;
    }
    case Op::Pow: return kPrecPow;
    case Op::FloorDiv:
    case Op::Mod:
    case Op::TrueDiv: return kPrecTorchFn;
    case Op::CeilDiv:
    case Op::ToInt: return kPrecFunc;
    case Op::Max:
    case Op::Min: return kPrecAtom;
    case Op::Eq:
    case Op::Ne: return kPrecMul;
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: return kPrecRelational;
    case Op::And: return kPrecAnd;
    case Op::Or: return kPrecOr;
    case Op::Not: return kPrecNot;
    case Op::Neg: return kPrecAdd;
    case Op::Float: return !e->name().empty() && e->name()[0] == '-' ? kPrecAdd : kPrecAtom;
    case Op::Function: return kPrecFunc;
  }
  return kPrecAtom;
}

std::string parenthesize(const ExprPtr& e, double level, bool strict = false) {
  double p = precedence(e);
  if (p < level || (!strict && p <= level)) return "(" + print(e) + ")";
  return print(e);
}

// sympy's sort_key is a nested tuple; Key models such a tuple so that the
// same lexicographic comparison can be made.
struct Key {
  enum class Kind { Number, Text, Tuple } kind = Kind::Tuple;
  Frac number;
  std::string text;
  std::vector<Key> items;
};

Key key_number(const Frac& f) {
  Key k;
  k.kind = Key::Kind::Number;
  k.number = f;
  return k;
}

Key key_int(int64_t v) { return key_number(Frac::of(v)); }

Key key_text(std::string s) {
  Key k;
  k.kind = Key::Kind::Text;
  k.text = std::move(s);
  return k;
}

Key key_tuple(std::vector<Key> items) {
  Key k;
  k.items = std::move(items);
  return k;
}

int compare_keys(const Key& a, const Key& b) {
  if (a.kind != b.kind) return a.kind < b.kind ? -1 : 1;
  switch (a.kind) {
    case Key::Kind::Number:
      try {
        return compare(a.number, b.number);
      } catch (const ArithError&) {
        long double x = static_cast<long double>(a.number.num) / a.number.den;
        long double y = static_cast<long double>(b.number.num) / b.number.den;
        return x < y ? -1 : (x > y ? 1 : 0);
      }
    case Key::Kind::Text: return a.text < b.text ? -1 : (a.text > b.text ? 1 : 0);
    case Key::Kind::Tuple:
      for (size_t i = 0; i < a.items.size() && i < b.items.size(); ++i)
        if (int c = compare_keys(a.items[i], b.items[i])) return c;
      if (a.items.size() == b.items.size()) return 0;
      return a.items.size() < b.items.size() ? -1 : 1;
  }
  return 0;
}

// The name sympy reports as the class of a node (used in its class_key).
std::string class_name(const SymExpr& e) {
  switch (e.op()) {
    case Op::FloorDiv: return "FloorDiv";
    case Op::Mod: return e.name().empty() ? "Mod" : e.name();
    case Op::TrueDiv: return e.name().empty() ? "IntTrueDiv" : e.name();
    case Op::CeilDiv: return e.name().empty() ? "CeilDiv" : e.name();
    case Op::ToInt: return e.name();
    case Op::Max: return "Max";
    case Op::Min: return "Min";
    case Op::Eq: return "Equality";
    case Op::Ne: return "Unequality";
    case Op::Lt: return "StrictLessThan";
    case Op::Le: return "LessThan";
    case Op::Gt: return "StrictGreaterThan";
    case Op::Ge: return "GreaterThan";
    case Op::And: return "And";
    case Op::Or: return "Or";
    case Op::Not: return "Not";
    case Op::Function: return e.name();
    default: return "";
  }
}

Key class_key(const SymExpr& e) {
  auto k = [](int a, int b, const std::string& n) { return key_tuple({key_int(a), key_int(b), key_text(n)}); };
  switch (e.op()) {
    case Op::Integer:
    case Op::Rational: return k(1, 0, "Number");
    case Op::Symbol: return k(2, 0, "Symbol");
    case Op::Mul:
    case Op::Neg: return k(3, 0, "Mul");
    case Op::Add: return k(3, 1, "Add");
    case Op::Pow: return k(3, 2, "Pow");
    case Op::FloorDiv:
    case Op::Mod:
    case Op::TrueDiv:
    case Op::CeilDiv: return k(4, 10000, class_name(e));
    default: return k(5, 0, class_name(e));
  }
}

Key sort_key(const ExprPtr& e);
std::vector<ExprPtr> ordered_terms(const ExprPtr& add);

std::vector<ExprPtr> sorted_by_key(std::vector<ExprPtr> xs) {
  std::vector<std::pair<Key, ExprPtr>> keyed;
  for (auto& x : xs) keyed.emplace_back(sort_key(x), x);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return compare_keys(a.first, b.first) < 0;
  });
  std::vector<ExprPtr> out;
  for (auto& kx : keyed) out.push_back(kx.second);
  return out;
}

Key sort_key(const ExprPtr& raw) {
  ExprPtr e = canonical(raw);
  Key number_class = key_tuple({key_int(1), key_int(0), key_text("Number")});
  if (is_number(*e))
    return key_tuple({number_class, key_tuple({key_int(0), key_tuple({})}), key_tuple({}),
                      key_number(number_of(*e))});
  if (e->op() == Op::Float) {  // a Number to sympy: ordered by value (to a millionth here)
    double v = std::strtod(e->name().c_str(), nullptr);
    Frac approx = std::fabs(v) < 9e12 ? Frac::of(std::llround(v * 1e6), 1000000) : Frac::of(v < 0 ? -1 : 1);
    return key_tuple({number_class, key_tuple({key_int(0), key_tuple({})}), key_tuple({}), key_number(approx)});
  }
  // Split off the numeric coefficient; a power is keyed by its base.
  auto [coefficient, factors] = split_coefficient(e);
  ExprPtr body = factors.size() == 1 ? factors[0] : make_node(Op::Mul, factors);
  ExprPtr exponent = make_number(Frac::of(1));
  if (body->op() == Op::Pow) {
    exponent = body->args()[1];
    body = body->args()[0];
  }
  std::vector<Key> args;
  if (body->op() == Op::Symbol || is_number(*body)) {
    args.push_back(key_text(print(body)));
  } else {
    std::vector<ExprPtr> children = body->args();
    if (body->op() == Op::Add) children = ordered_terms(body);
    if (body->op() == Op::Mul) children = sorted_by_key(children);
    for (const auto& c : children) args.push_back(sort_key(c));
  }
  Key args_key = key_tuple({key_int(static_cast<int64_t>(args.size())), key_tuple(args)});
  return key_tuple({class_key(*body), args_key, sort_key(exponent), key_number(coefficient)});
}

size_t node_count(const SymExpr& e) {
  size_t n = 1;
  for (const auto& a : e.args()) n += node_count(*a);
  return n;
}

}  // namespace

std::vector<ExprPtr> lattice_order(std::vector<ExprPtr> args) {
  std::vector<std::pair<size_t, ExprPtr>> sized;
  for (auto& a : args) sized.emplace_back(node_count(*a), a);
  std::stable_sort(sized.begin(), sized.end(), [](const auto& x, const auto& y) {
    if (x.first != y.first) return x.first < y.first;
    return compare_keys(sort_key(x.second), sort_key(y.second)) < 0;
  });
  std::vector<ExprPtr> out;
  for (auto& s : sized) out.push_back(s.second);
  return out;
}

namespace {

// A term of a sum as sympy's as_terms sees it: coefficient and the
// exponent of each generator (non-numeric factor base).
struct Term {
  ExprPtr expr;
  Frac coefficient;
  std::vector<std::pair<ExprPtr, int64_t>> powers;
};

Term decompose_term(const ExprPtr& t) {
  Term term;
  term.expr = t;
  auto [c, factors] = split_coefficient(t);
  term.coefficient = c;
  for (const auto& f : factors) {
    if (f->op() == Op::Pow && f->args()[1]->op() == Op::Integer)
      term.powers.emplace_back(f->args()[0], f->args()[1]->value());
    else
      term.powers.emplace_back(f, 1);
  }
  return term;
}

// sympy's Expr.as_ordered_terms() with the default (lex) order.
std::vector<ExprPtr> ordered_terms(const ExprPtr& add) {
  const auto& args = add->args();
  // sympy's special case: "3 - 2*s0" keeps the positive number first.
  if (args.size() == 2) {
    ExprPtr num = is_number(*args[0]) ? args[0] : args[1];
    ExprPtr other = num == args[0] ? args[1] : args[0];
    if (is_number(*num) && other->op() == Op::Mul && other->args().size() == 2 &&
        is_number(*other->args()[0]) && number_of(*num).num > 0 &&
        number_of(*other->args()[0]).num < 0)
      return {num, other};
  }
  std::vector<Term> terms;
  std::vector<ExprPtr> gens;
  for (const auto& a : args) {
    terms.push_back(decompose_term(canonical(a)));
    for (const auto& power : terms.back().powers) {
      const ExprPtr& base = power.first;
      bool known = std::any_of(gens.begin(), gens.end(),
                               [&](const ExprPtr& g) { return same(*g, *base); });
      if (!known) gens.push_back(base);
    }
  }
  gens = sorted_by_key(gens);
  auto monomial = [&](const Term& t) {
    std::vector<int64_t> m(gens.size(), 0);
    for (const auto& [base, exp] : t.powers)
      for (size_t i = 0; i < gens.size(); ++i)
        if (same(*gens[i], *base)) m[i] += exp;
    return m;
  };
  std::vector<std::pair<std::vector<int64_t>, size_t>> order;
  for (size_t i = 0; i < terms.size(); ++i) order.emplace_back(monomial(terms[i]), i);
  std::stable_sort(order.begin(), order.end(), [&](const auto& x, const auto& y) {
    if (x.first != y.first) return x.first > y.first;  // higher monomial first
    return compare(terms[x.second].coefficient, terms[y.second].coefficient) < 0;
  });
  std::vector<ExprPtr> out;
  for (const auto& o : order) out.push_back(args[o.second]);
  return out;
}

std::string print_add(const ExprPtr& e) {
  std::vector<std::string> parts;
  for (const auto& term : ordered_terms(e)) {
    std::string t = print(term);
    std::string sign = "+";
    if (!t.empty() && t[0] == '-' && term->op() != Op::Add) {
      sign = "-";
      t = t.substr(1);
    }
    if (precedence(term) < kPrecAdd || term->op() == Op::Add) t = "(" + t + ")";
    parts.push_back(sign);
    parts.push_back(t);
  }
  std::string out = parts[0] == "+" ? "" : "-";
  for (size_t i = 1; i < parts.size(); ++i) out += (i > 1 ? " " : "") + parts[i];
  return out;
}

bool negative_exponent(const ExprPtr& f) {
  if (f->op() != Op::Pow) return false;
  return split_coefficient(f->args()[1]).first.num < 0;
}

std::string print_mul(const ExprPtr& e) {
  double prec = precedence(e);
  auto [coefficient, factors] = split_coefficient(e);
  std::string sign;
  if (coefficient.num < 0) {
    sign = "-";
    coefficient = -coefficient;
  }
  // Numerator and denominator factors; `wrap` marks 1/(x*y)-style bases.
  std::vector<std::pair<ExprPtr, bool>> num, den;
  if (coefficient.num != 1) num.emplace_back(make_number(Frac::of(coefficient.num)), false);
  if (coefficient.den != 1) den.emplace_back(make_number(Frac::of(coefficient.den)), false);
  for (const auto& f : sorted_by_key(factors)) {
    if (!negative_exponent(f)) {
      num.emplace_back(f, false);
      continue;
    }
    ExprPtr base = f->args()[0];
    ExprPtr exponent = f->args()[1];
    if (exponent->op() == Op::Integer && exponent->value() == -1) {
      bool wrap = (base->op() == Op::Mul || base->op() == Op::Pow) && base->args().size() != 1;
      den.emplace_back(base, wrap);
    } else {
      den.emplace_back(make_node(Op::Pow, {base, make_negative(exponent)}), false);
    }
  }
  if (num.empty()) num.emplace_back(make_number(Frac::of(1)), false);
  auto join = [&](const std::vector<std::pair<ExprPtr, bool>>& xs) {
    std::string s;
    for (size_t i = 0; i < xs.size(); ++i) {
      std::string p = parenthesize(xs[i].first, prec);
      if (xs[i].second) p = "(" + p + ")";
      s += (i ? "*" : "") + p;
    }
    return s;
  };
  if (den.empty()) return sign + join(num);
  if (den.size() == 1) return sign + join(num) + "/" + join(den);
  return sign + join(num) + "/(" + join(den) + ")";
}

std::string print_pow(const ExprPtr& e) {
  const ExprPtr& base = e->args()[0];
  const ExprPtr& exponent = e->args()[1];
  if (exponent->op() == Op::Rational && exponent->value() == 1 && exponent->denominator() == 2)
    return "sqrt(" + print(base) + ")";
  if (exponent->op() == Op::Rational && exponent->value() == -1 && exponent->denominator() == 2)
    return "1/sqrt(" + print(base) + ")";
  if (exponent->op() == Op::Integer && exponent->value() == -1)
    return "1/" + parenthesize(base, kPrecPow);
  return parenthesize(base, kPrecPow) + "**" + parenthesize(exponent, kPrecPow);
}

std::string join_printed(const std::vector<ExprPtr>& xs, const std::string& sep, double level,
                         bool plain) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i)
    s += (i ? sep : "") + (plain ? print(xs[i]) : parenthesize(xs[i], level));
  return s;
}

std::string print_relational(const ExprPtr& e, const char* op) {
  double p = precedence(e);
  return parenthesize(e->args()[0], p) + " " + op + " " + parenthesize(e->args()[1], p);
}

std::string print(const ExprPtr& raw) {
  ExprPtr e = canonical(raw);
  switch (e->op()) {
    case Op::Integer:
      return e->name().empty() ? std::to_string(e->value()) : e->name();
    case Op::Rational:
      if (!e->name().empty()) return e->name();
      return std::to_string(e->value()) + "/" + std::to_string(e->denominator());
    case Op::Symbol: return e->name();
    case Op::Add: return print_add(e);
    case Op::Mul:
    case Op::Neg: return print_mul(e);
    case Op::Pow: return print_pow(e);
    case Op::FloorDiv:
      return "(" + parenthesize(e->args()[0], kPrecAtom - 0.5) + "//" +
             parenthesize(e->args()[1], kPrecAtom - 0.5) + ")";
    case Op::Mod:
    case Op::TrueDiv:
    case Op::CeilDiv:
    case Op::ToInt: return class_name(*e) + "(" + join_printed(e->args(), ", ", 0, true) + ")";
    case Op::Max:
    case Op::Min:
      return class_name(*e) + "(" + join_printed(sorted_by_key(e->args()), ", ", 0, true) + ")";
    case Op::Eq: return "Eq(" + join_printed(e->args(), ", ", 0, true) + ")";
    case Op::Ne: return "Ne(" + join_printed(e->args(), ", ", 0, true) + ")";
    case Op::Lt: return print_relational(e, "<");
    case Op::Le: return print_relational(e, "<=");
    case Op::Gt: return print_relational(e, ">");
    case Op::Ge: return print_relational(e, ">=");
    case Op::And: return join_printed(e->args(), " & ", kPrecBitAnd, false);
    case Op::Or: return join_printed(e->args(), " | ", kPrecBitOr, false);
    case Op::Not: return "~" + parenthesize(e->args()[0], kPrecNot);
    case Op::Float: return e->name();
    case Op::Function: return e->name() + "(" + join_printed(e->args(), ", ", 0, true) + ")";
  }
  return "?";
}



}  // namespace

std::string print_expression(const ExprPtr& e) { return print(e); }

}  // namespace pt2web::sym_detail
