// The parts of SymExpr (sym_expr.h) that live in separate files: the parser
// (sym_expr_parser.cpp), exact evaluation and linear forms
// (sym_expr_eval.cpp) and the sympy-compatible printer (sym_expr_print.cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "program/sym_build.h"
#include "program/sym_functions.h"

namespace pt2web::sym_detail {

// Parses the srepr or str() form; throws Error(BadFile) naming the position.
ExprPtr parse_expression(const std::string& text);

using Lookup = std::function<std::optional<int64_t>(const std::string&)>;

// The value of `e` with symbols from `lookup` (exact, or a double once a
// float function is involved); throws ArithError, or Error(BadInput) for an
// unbound symbol.
SymValue evaluate_value(const SymExpr& e, const Lookup& lookup);

// a*sym + b.
struct Linear {
  Frac a;
  Frac b;
  std::string sym;
};

// The linear form of `e` in at most one symbol, or nullopt.
std::optional<Linear> linear_form(const SymExpr& e);

// Max/Min arguments in the order sympy stores them (by size, then sort key);
// defined with the printer.
std::vector<ExprPtr> lattice_order(std::vector<ExprPtr> args);

// sympy's str() of `e`, torch's FloorDiv and friends included.
std::string print_expression(const ExprPtr& e);

}  // namespace pt2web::sym_detail
