// Symbolic integer expressions from the export schema's SymExpr.expr_str.
//
// torch writes these either with str() ("s0", "2*s0", "s0 + 1",
// "FloorDiv(s0, 2)") or, from about 2.6, with sympy.srepr
// ("Symbol('s0', integer=True, positive=True)", "Mul(Integer(2), Symbol('s0', ...))").
// parse() accepts both. Expressions are immutable and shared.
//
// Values: integers and rationals are exact; float-valued functions (ToFloat,
// IntTrueDiv, FloatPow, OpaqueUnaryFn_*, Float literals, ...) compute in
// double precision like the Python floats torch evaluates them with, until
// a rounding function (TruncToInt, FloorToInt, ...) makes an integer again.
//
// Errors: parse() throws Error(BadFile) naming the text and the position;
// evaluate() throws Error(BadInput) when a symbol has no value, on division
// by zero, or when the value is not an integer.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pt2web {

class SymExpr {
 public:
  enum class Op {
    Integer, Symbol, Rational,   // leaves (Rational: value/den, for sympy's Rational)
    Add, Mul, Pow, Neg,          // arithmetic (Add/Mul are n-ary)
    FloorDiv, Mod, CeilDiv,      // FloorDiv(a,b), Mod/PythonMod(a,b), CeilDiv
    Max, Min,                    // n-ary
    Eq, Ne, Lt, Le, Gt, Ge,      // comparisons (value 1 or 0), also sympy's
                                 // Equality/StrictLessThan/... spellings
    And, Or, Not,
    TrueDiv,                     // IntTrueDiv / FloatTrueDiv, evaluated as floor for ints
    ToInt,                       // TruncToInt, FloorToInt, CeilToInt, RoundToInt, floor,
                                 // ceiling: a number rounded to an integer (name() says how)
    Float,                       // a float literal (sympy's Float); name() is its decimal text
    Function,                    // any other named function of torch or sympy (ToFloat, Where,
                                 // FloatPow, OpaqueUnaryFn_sqrt, ...): name() is the function,
                                 // program/sym_functions.h evaluates it
  };

  static std::shared_ptr<const SymExpr> parse(const std::string& text);
  static std::shared_ptr<const SymExpr> integer(int64_t value);
  static std::shared_ptr<const SymExpr> symbol(const std::string& name);

  Op op() const { return op_; }
  int64_t value() const { return value_; }           // Integer (and Rational numerator)
  int64_t denominator() const { return denominator_; }  // Rational (1 for everything else)
  // Symbol: its name. Mod, TrueDiv, CeilDiv and ToInt: the function as spelled in
  // the text ("PythonMod", "FloatTrueDiv", ...), so printing keeps it.
  const std::string& name() const { return name_; }
  const std::vector<std::shared_ptr<const SymExpr>>& args() const { return args_; }

  // Evaluates with symbol values from `lookup` (nullopt = unknown symbol).
  int64_t evaluate(const std::function<std::optional<int64_t>(const std::string&)>& lookup) const;

  // Names of the free symbols, sorted, without duplicates.
  std::vector<std::string> symbols() const;

  // If this expression is a*sym + b with integer a != 0 and b and a single
  // symbol, and `value` is reachable, returns (sym, solution); else nullopt.
  // Used to bind a symbol that only appears in derived sizes such as 2*s0.
  std::optional<std::pair<std::string, int64_t>> solve_linear(int64_t value) const;

  // Infix form as torch prints it in shapes: "s0", "2*s0", "s0 + 1", "s0//2".
  std::string to_string() const;

  // Public for make_shared; use parse()/integer()/symbol().
  SymExpr(Op op, int64_t value, std::string name, std::vector<std::shared_ptr<const SymExpr>> args,
          int64_t denominator = 1)
      : op_(op), value_(value), denominator_(denominator), name_(std::move(name)),
        args_(std::move(args)) {}

 private:
  Op op_;
  int64_t value_ = 0;
  int64_t denominator_ = 1;
  std::string name_;
  std::vector<std::shared_ptr<const SymExpr>> args_;
};

}  // namespace pt2web
