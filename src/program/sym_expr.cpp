// SymExpr's public API (sym_expr.h). The work is split by job:
//   sym_frac.h           exact rational arithmetic with overflow detection
//   sym_build.h          node construction and canonical form
//   sym_expr_parser.cpp  srepr and str() parsing
//   sym_expr_eval.cpp    exact evaluation and linear forms
//   sym_expr_print.cpp   sympy-compatible printing
#include "program/sym_expr.h"

#include <cmath>
#include <set>

#include "program/sym_expr_internal.h"
#include "util/error.h"

namespace pt2web {

using sym_detail::ArithError;
using sym_detail::ExprPtr;
using sym_detail::Frac;
using sym_detail::Linear;
using Op = SymExpr::Op;

namespace {

void collect_symbols(const SymExpr& e, std::set<std::string>& out) {
  if (e.op() == Op::Symbol) out.insert(e.name());
  for (const auto& a : e.args()) collect_symbols(*a, out);
}

}  // namespace

std::shared_ptr<const SymExpr> SymExpr::parse(const std::string& text) {
  return sym_detail::parse_expression(text);
}

std::shared_ptr<const SymExpr> SymExpr::integer(int64_t value) {
  return std::make_shared<SymExpr>(Op::Integer, value, "", std::vector<ExprPtr>{});
}

std::shared_ptr<const SymExpr> SymExpr::symbol(const std::string& name) {
  return std::make_shared<SymExpr>(Op::Symbol, 0, name, std::vector<ExprPtr>{});
}

int64_t SymExpr::evaluate(const sym_detail::Lookup& lookup) const {
  sym_detail::SymValue result;
  try {
    result = sym_detail::evaluate_value(*this, lookup);
  } catch (const ArithError& e) {
    fail(ErrorCode::BadInput, e.what, " while evaluating the size ", to_string());
  }
  if (result.is_float) {
    if (std::trunc(result.real) != result.real || std::fabs(result.real) > 9.2e18)
      fail(ErrorCode::BadInput, "the size ", to_string(), " evaluates to the float ", result.real);
    return static_cast<int64_t>(result.real);
  }
  if (!result.exact.is_integer())
    fail(ErrorCode::BadInput, "the size ", to_string(), " evaluates to the fraction ", result.exact.num,
         "/", result.exact.den);
  return result.exact.num;
}

std::vector<std::string> SymExpr::symbols() const {
  std::set<std::string> names;
  collect_symbols(*this, names);
  return {names.begin(), names.end()};
}

std::optional<std::pair<std::string, int64_t>> SymExpr::solve_linear(int64_t value) const {
  try {
    std::optional<Linear> form = sym_detail::linear_form(*this);
    if (!form || form->sym.empty() || form->a.is_zero()) return std::nullopt;
    Frac solution = (Frac::of(value) - form->b) / form->a;
    if (!solution.is_integer()) return std::nullopt;
    return std::make_pair(form->sym, solution.num);
  } catch (const ArithError&) {
    return std::nullopt;
  } catch (const Error&) {
    return std::nullopt;  // a constant sub-expression that cannot be evaluated
  }
}

std::string SymExpr::to_string() const {
  // print() works on shared pointers; wrap this node without owning it.
  ExprPtr self(std::shared_ptr<const SymExpr>(), this);
  return sym_detail::print_expression(self);
}

}  // namespace pt2web