// SymExpr: parsing (sympy srepr and str forms), exact evaluation, linear
// solving and sympy-compatible printing of torch's symbolic sizes.
//
// Representation rules that the rest of this file relies on:
//  * numbers are Integer or Rational nodes (Rational keeps value/denominator);
//  * Add and Mul are flat (no Add directly inside an Add, no Mul inside a Mul)
//    and hold at most one number, which in a Mul comes first;
//  * subtraction and negation are expressed as a Mul by -1, as sympy does;
//  * Neg is never produced by parse() but is accepted everywhere.
#include "program/sym_expr.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include "util/error.h"

namespace pt2web {
namespace {

using ExprPtr = std::shared_ptr<const SymExpr>;
using Op = SymExpr::Op;

// ---------------------------------------------------------------------------
// Exact rational arithmetic on int64 with overflow detection.

// Thrown by the arithmetic helpers; callers turn it into the right Error code
// (BadFile while parsing constants, BadInput while evaluating).
struct ArithError {
  std::string what;
};

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw ArithError{"integer overflow"};
  return r;
}

int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw ArithError{"integer overflow"};
  return r;
}

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw ArithError{"integer overflow"};
  return r;
}

uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b != 0) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// Python's floor division on integers (rounds toward negative infinity).
int64_t floor_div(int64_t n, int64_t d) {
  if (d == -1) return checked_sub(0, n);
  int64_t q = n / d;
  if (n % d != 0 && ((n < 0) != (d < 0))) --q;
  return q;
}

// A reduced fraction with a positive denominator.
struct Frac {
  int64_t num = 0;
  int64_t den = 1;

  static Frac of(int64_t n, int64_t d = 1) {
    if (d == 0) throw ArithError{"division by zero"};
    if (d < 0) {
      n = checked_sub(0, n);
      d = checked_sub(0, d);
    }
    int64_t g = static_cast<int64_t>(gcd_u64(magnitude(n), static_cast<uint64_t>(d)));
    if (g > 1) {
      n /= g;
      d /= g;
    }
    Frac f;
    f.num = n;
    f.den = d;
    return f;
  }

  bool is_integer() const { return den == 1; }
  bool is_zero() const { return num == 0; }
  bool operator==(const Frac& o) const { return num == o.num && den == o.den; }
  bool operator!=(const Frac& o) const { return !(*this == o); }
};

Frac operator+(const Frac& a, const Frac& b) {
  if (a.den == 1 && b.den == 1) return Frac::of(checked_add(a.num, b.num));
  return Frac::of(checked_add(checked_mul(a.num, b.den), checked_mul(b.num, a.den)),
                  checked_mul(a.den, b.den));
}

Frac operator-(const Frac& a) { return Frac::of(checked_sub(0, a.num), a.den); }
Frac operator-(const Frac& a, const Frac& b) { return a + (-b); }

Frac operator*(const Frac& a, const Frac& b) {
  // Cross-reduce first so intermediate products stay small.
  // Both gcds are at least 1 because denominators are positive.
  int64_t g1 = static_cast<int64_t>(gcd_u64(magnitude(a.num), static_cast<uint64_t>(b.den)));
  int64_t g2 = static_cast<int64_t>(gcd_u64(magnitude(b.num), static_cast<uint64_t>(a.den)));
  return Frac::of(checked_mul(a.num / g1, b.num / g2), checked_mul(a.den / g2, b.den / g1));
}

Frac reciprocal(const Frac& a) {
  if (a.num == 0) throw ArithError{"division by zero"};
  return Frac::of(a.den, a.num);
}

Frac operator/(const Frac& a, const Frac& b) { return a * reciprocal(b); }

int compare(const Frac& a, const Frac& b) {
  Frac d = a - b;
  return d.num < 0 ? -1 : (d.num > 0 ? 1 : 0);
}

int64_t floor_of(const Frac& a) { return floor_div(a.num, a.den); }

Frac floor_divide(const Frac& a, const Frac& b) { return Frac::of(floor_of(a / b)); }

// Python's a % b: the result takes the divisor's sign.
Frac python_mod(const Frac& a, const Frac& b) { return a - b * floor_divide(a, b); }

Frac power(Frac base, const Frac& exponent) {
  if (!exponent.is_integer()) throw ArithError{"a non-integer exponent"};
  if (exponent.num < 0) base = reciprocal(base);
  uint64_t e = magnitude(exponent.num);
  Frac result = Frac::of(1);
  while (e > 0) {
    if (e & 1) result = result * base;
    e >>= 1;
    if (e > 0) base = base * base;
  }
  return result;
}

Frac truth(bool b) { return Frac::of(b ? 1 : 0); }

// ---------------------------------------------------------------------------
// Node construction with the light canonicalization described at the top.

ExprPtr make_node(Op op, std::vector<ExprPtr> args, std::string name = "") {
  return std::make_shared<SymExpr>(op, 0, std::move(name), std::move(args));
}

ExprPtr make_number(const Frac& f, std::string spelling = "") {
  if (f.is_integer()) return std::make_shared<SymExpr>(Op::Integer, f.num, std::move(spelling),
                                                       std::vector<ExprPtr>{});
  return std::make_shared<SymExpr>(Op::Rational, f.num, std::move(spelling), std::vector<ExprPtr>{},
                                   f.den);
}

bool is_number(const SymExpr& e) { return e.op() == Op::Integer || e.op() == Op::Rational; }

Frac number_of(const SymExpr& e) {
  return e.op() == Op::Rational ? Frac::of(e.value(), e.denominator()) : Frac::of(e.value());
}

ExprPtr make_add(const std::vector<ExprPtr>& terms) {
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

ExprPtr make_mul(const std::vector<ExprPtr>& factors) {
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

ExprPtr make_negative(const ExprPtr& e) { return make_mul({make_number(Frac::of(-1)), e}); }

ExprPtr make_pow(const ExprPtr& base, const ExprPtr& exponent) {
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

ExprPtr make_divide(const ExprPtr& a, const ExprPtr& b) {
  return make_mul({a, make_pow(b, make_number(Frac::of(-1)))});
}

// Numeric coefficient and the remaining factors of a product-like term.
std::pair<Frac, std::vector<ExprPtr>> split_coefficient(const ExprPtr& e) {
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

bool same(const SymExpr& a, const SymExpr& b) {
  if (a.op() != b.op() || a.value() != b.value() || a.denominator() != b.denominator())
    return false;
  if (a.op() == Op::Symbol && a.name() != b.name()) return false;
  if (a.args().size() != b.args().size()) return false;
  for (size_t i = 0; i < a.args().size(); ++i)
    if (!same(*a.args()[i], *b.args()[i])) return false;
  return true;
}

// sympy stores Max/Min arguments sorted (by size, then sort key); defined
// with the printer below.
std::vector<ExprPtr> lattice_order(std::vector<ExprPtr> args);

// ---------------------------------------------------------------------------
// Parser: one recursive-descent grammar covers both the srepr form (calls such
// as Mul(Integer(2), Symbol('s0', integer=True))) and the infix str() form.
//
//   or      := and ('|' and)*
//   and     := not ('&' not)*
//   not     := '~' not | compare
//   compare := sum [('=='|'!='|'<'|'<='|'>'|'>=') sum]
//   sum     := term (('+'|'-') term)*
//   term    := unary (('*'|'/'|'//'|'%') unary)*
//   unary   := ('-'|'+') unary | power
//   power   := atom ['**' unary]
//   atom    := number | name | name '(' args ')' | '(' or ')'

// One argument of a call: an expression, or a quoted string (Symbol and
// Float take their text that way). Keyword arguments are parsed and dropped.
struct CallArg {
  ExprPtr expr;
  bool is_string = false;
  std::string text;
  size_t pos = 0;
};

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  ExprPtr parse_all() {
    ExprPtr e = parse_or();
    skip_space();
    if (pos_ < text_.size()) error("unexpected '" + std::string(1, text_[pos_]) + "'", pos_);
    return e;
  }

 private:
  const std::string& text_;
  size_t pos_ = 0;
  int depth_ = 0;

  // Bounds recursion so that hostile text cannot exhaust the stack.
  class Nesting {
   public:
    explicit Nesting(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth) p_.error("the expression is nested too deeply", p_.pos_);
    }
    ~Nesting() { --p_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    // Each bracket or call level costs three guards: about 200 levels.
    static constexpr int kMaxDepth = 600;
    Parser& p_;
  };

  [[noreturn]] void error(const std::string& what, size_t at) const {
    fail(ErrorCode::BadFile, "cannot parse the symbolic expression \"", text_, "\": ", what,
         " at position ", at);
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  // True (and consumes) if the next token is `op` and is not the start of a
  // longer operator listed in `unless`.
  bool accept(const char* op, const char* unless = nullptr) {
    skip_space();
    size_t n = std::char_traits<char>::length(op);
    if (text_.compare(pos_, n, op) != 0) return false;
    if (unless != nullptr) {
      size_t m = std::char_traits<char>::length(unless);
      if (text_.compare(pos_, m, unless) == 0) return false;
    }
    pos_ += n;
    return true;
  }

  void expect(const char* op) {
    if (!accept(op)) error(std::string("expected '") + op + "'", pos_);
  }

  // Arithmetic on constants while parsing reports problems as a bad file.
  template <typename F>
  ExprPtr constant_fold(size_t at, F&& build) {
    try {
      return build();
    } catch (const ArithError& e) {
      error(e.what, at);
    }
  }

  ExprPtr parse_or() {
    Nesting guard(*this);
    std::vector<ExprPtr> parts{parse_and()};
    while (accept("|")) parts.push_back(parse_and());
    return parts.size() == 1 ? parts[0] : make_node(Op::Or, std::move(parts));
  }

  ExprPtr parse_and() {
    std::vector<ExprPtr> parts{parse_not()};
    while (accept("&")) parts.push_back(parse_not());
    return parts.size() == 1 ? parts[0] : make_node(Op::And, std::move(parts));
  }

  ExprPtr parse_not() {
    Nesting guard(*this);
    if (accept("~")) return make_node(Op::Not, {parse_not()});
    return parse_compare();
  }

  ExprPtr parse_compare() {
    ExprPtr lhs = parse_sum();
    static const std::pair<const char*, Op> kOps[] = {{"==", Op::Eq}, {"!=", Op::Ne},
                                                      {"<=", Op::Le}, {">=", Op::Ge},
                                                      {"<", Op::Lt},  {">", Op::Gt}};
    for (const auto& [spelling, op] : kOps) {
      if (!accept(spelling)) continue;
      ExprPtr rhs = parse_sum();
      skip_space();
      for (const auto& other : kOps) {
        if (text_.compare(pos_, std::char_traits<char>::length(other.first), other.first) == 0)
          error("chained comparisons are not supported", pos_);
      }
      return make_node(op, {lhs, rhs});
    }
    return lhs;
  }

  ExprPtr parse_sum() {
    size_t start = pos_;
    std::vector<ExprPtr> terms{parse_term()};
    for (;;) {
      if (accept("+")) {
        terms.push_back(parse_term());
      } else if (accept("-")) {
        ExprPtr t = parse_term();
        terms.push_back(constant_fold(start, [&] { return make_negative(t); }));
      } else {
        break;
      }
    }
    if (terms.size() == 1) return terms[0];
    return constant_fold(start, [&] { return make_add(terms); });
  }

  ExprPtr parse_term() {
    size_t start = pos_;
    ExprPtr cur = parse_unary();
    for (;;) {
      if (accept("*", "**")) {
        ExprPtr rhs = parse_unary();
        cur = constant_fold(start, [&] { return make_mul({cur, rhs}); });
      } else if (accept("//")) {
        cur = make_node(Op::FloorDiv, {cur, parse_unary()});
      } else if (accept("/")) {
        ExprPtr rhs = parse_unary();
        cur = constant_fold(start, [&] { return make_divide(cur, rhs); });
      } else if (accept("%")) {
        cur = make_node(Op::Mod, {cur, parse_unary()}, "Mod");
      } else {
        return cur;
      }
    }
  }

  ExprPtr parse_unary() {
    Nesting guard(*this);
    size_t start = pos_;
    if (accept("-")) {
      ExprPtr inner = parse_unary();
      return constant_fold(start, [&] { return make_negative(inner); });
    }
    if (accept("+")) return parse_unary();
    return parse_power();
  }

  ExprPtr parse_power() {
    size_t start = pos_;
    ExprPtr base = parse_atom();
    if (!accept("**")) return base;
    ExprPtr exponent = parse_unary();
    return constant_fold(start, [&] { return make_pow(base, exponent); });
  }

  ExprPtr parse_atom() {
    skip_space();
    if (pos_ >= text_.size()) error("unexpected end of text", pos_);
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      ExprPtr e = parse_or();
      expect(")");
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return parse_number_literal();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      std::string name = parse_name();
      if (accept("(")) return parse_call(name, start);
      return bare_name(name, start);
    }
    error("unexpected '" + std::string(1, c) + "'", pos_);
  }

  std::string parse_name() {
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // Decimal literal "12" or "2.50" (a float: kept exactly as a fraction).
  ExprPtr parse_number_literal() {
    size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    bool is_float = pos_ < text_.size() && text_[pos_] == '.';
    if (is_float) {
      ++pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E'))
      error("exponent notation is not supported", pos_);
    std::string literal = text_.substr(start, pos_ - start);
    return decimal(literal, start, is_float ? literal : "");
  }

  ExprPtr decimal(const std::string& literal, size_t at, const std::string& spelling) {
    Frac value;
    bool seen_point = false;
    bool any_digit = false;
    try {
      int64_t num = 0;
      int64_t den = 1;
      for (char ch : literal) {
        if (ch == '.' && !seen_point) {
          seen_point = true;
          continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(ch)))
          error("bad number '" + literal + "'", at);
        any_digit = true;
        num = checked_add(checked_mul(num, 10), ch - '0');
        if (seen_point) den = checked_mul(den, 10);
      }
      value = Frac::of(num, den);
    } catch (const ArithError&) {
      error("number '" + literal + "' is out of range", at);
    }
    if (!any_digit) error("bad number '" + literal + "'", at);
    return make_number(value, spelling);
  }

  ExprPtr bare_name(const std::string& name, size_t at) {
    if (name == "True" || name == "true" || name == "BooleanTrue") return make_number(Frac::of(1));
    if (name == "False" || name == "false" || name == "BooleanFalse")
      return make_number(Frac::of(0));
    if (name == "oo" || name == "int_oo" || name == "zoo" || name == "nan")
      error("'" + name + "' (infinity) is not supported", at);
    return SymExpr::symbol(name);
  }

  std::string parse_quoted() {
    char quote = text_[pos_];
    size_t start = pos_++;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (pos_ >= text_.size()) error("unterminated string", start);
    ++pos_;
    return out;
  }

  // True if a keyword argument "name=" (not "name==") starts here.
  bool at_keyword() {
    size_t save = pos_;
    skip_space();
    bool keyword = false;
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) ||
                                text_[pos_] == '_')) {
      parse_name();
      skip_space();
      keyword = pos_ < text_.size() && text_[pos_] == '=' &&
                (pos_ + 1 >= text_.size() || text_[pos_ + 1] != '=');
    }
    pos_ = save;
    return keyword;
  }

  CallArg parse_call_arg() {
    skip_space();
    CallArg arg;
    arg.pos = pos_;
    if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
      arg.is_string = true;
      arg.text = parse_quoted();
    } else {
      arg.expr = parse_or();
    }
    return arg;
  }

  std::vector<CallArg> parse_call_args() {
    std::vector<CallArg> args;
    if (accept(")")) return args;
    for (;;) {
      if (at_keyword()) {
        skip_space();
        parse_name();
        expect("=");
        parse_call_arg();  // keyword values (assumptions such as integer=True) do not matter
      } else {
        args.push_back(parse_call_arg());
      }
      if (accept(")")) return args;
      expect(",");
    }
  }

  ExprPtr parse_call(const std::string& name, size_t at) {
    std::vector<CallArg> args = parse_call_args();
    return build_call(name, args, at);
  }

  void check_count(const std::string& name, const std::vector<CallArg>& args, size_t lo,
                   size_t hi, size_t at) const {
    if (args.size() < lo || args.size() > hi)
      error(name + "() takes " +
                (lo == hi ? std::to_string(lo) : "at least " + std::to_string(lo)) +
                " argument(s), got " + std::to_string(args.size()),
            at);
  }

  std::vector<ExprPtr> expressions(const std::string& name, const std::vector<CallArg>& args) const {
    std::vector<ExprPtr> out;
    for (const auto& a : args) {
      if (a.is_string) error("unexpected string argument to " + name + "()", a.pos);
      out.push_back(a.expr);
    }
    return out;
  }

  Frac integer_arg(const CallArg& a, const std::string& name) const {
    if (a.is_string || !is_number(*a.expr) || a.expr->op() != Op::Integer)
      error(name + "() expects an integer", a.pos);
    return number_of(*a.expr);
  }

  ExprPtr build_call(const std::string& name, const std::vector<CallArg>& args, size_t at) {
    constexpr size_t kMany = static_cast<size_t>(-1);
    if (name == "Symbol") {
      check_count(name, args, 1, 1, at);
      if (!args[0].is_string || args[0].text.empty())
        error("Symbol() expects a quoted name", args[0].pos);
      return SymExpr::symbol(args[0].text);
    }
    if (name == "Integer") {
      check_count(name, args, 1, 1, at);
      return make_number(integer_arg(args[0], name));
    }
    if (name == "Rational") {
      check_count(name, args, 2, 2, at);
      Frac p = integer_arg(args[0], name);
      Frac q = integer_arg(args[1], name);
      return constant_fold(at, [&] { return make_number(p / q); });
    }
    if (name == "Float") {
      check_count(name, args, 1, 1, at);
      if (args[0].is_string) return decimal(args[0].text, args[0].pos, args[0].text);
      return expressions(name, args)[0];
    }
    if (name == "BooleanTrue" || name == "BooleanFalse") {
      check_count(name, args, 0, 0, at);
      return make_number(Frac::of(name == "BooleanTrue" ? 1 : 0));
    }
    std::vector<ExprPtr> xs = expressions(name, args);
    if (name == "Add" || name == "Mul") {
      check_count(name, args, 1, kMany, at);
      return constant_fold(at, [&] { return name == "Add" ? make_add(xs) : make_mul(xs); });
    }
    if (name == "Pow" || name == "PowByNatural") {
      check_count(name, args, 2, 2, at);
      return constant_fold(at, [&] { return make_pow(xs[0], xs[1]); });
    }
    if (name == "Identity" || name == "ToFloat") {
      check_count(name, args, 1, 1, at);
      return xs[0];
    }
    if (name == "ModularIndexing") {  // (a // b) % c
      check_count(name, args, 3, 3, at);
      return make_node(Op::Mod, {make_node(Op::FloorDiv, {xs[0], xs[1]}), xs[2]}, "Mod");
    }
    if (name == "Not") {
      check_count(name, args, 1, 1, at);
      return make_node(Op::Not, xs);
    }
    static const std::map<std::string, Op> kBinary = {
        {"FloorDiv", Op::FloorDiv},       {"CleanDiv", Op::FloorDiv},
        {"Mod", Op::Mod},                 {"PythonMod", Op::Mod},
        {"CeilDiv", Op::CeilDiv},         {"IntTrueDiv", Op::TrueDiv},
        {"FloatTrueDiv", Op::TrueDiv},    {"Eq", Op::Eq},
        {"Equality", Op::Eq},             {"Ne", Op::Ne},
        {"Unequality", Op::Ne},           {"Lt", Op::Lt},
        {"StrictLessThan", Op::Lt},       {"Le", Op::Le},
        {"LessThan", Op::Le},             {"Gt", Op::Gt},
        {"StrictGreaterThan", Op::Gt},    {"Ge", Op::Ge},
        {"GreaterThan", Op::Ge}};
    if (auto it = kBinary.find(name); it != kBinary.end()) {
      check_count(name, args, 2, 2, at);
      Op op = it->second;
      bool keeps_name = op == Op::Mod || op == Op::TrueDiv || op == Op::CeilDiv;
      return make_node(op, xs, keeps_name ? name : "");
    }
    static const std::map<std::string, Op> kVariadic = {
        {"Max", Op::Max}, {"Min", Op::Min}, {"And", Op::And}, {"Or", Op::Or}};
    if (auto it = kVariadic.find(name); it != kVariadic.end()) {
      check_count(name, args, 1, kMany, at);
      if (xs.size() == 1) return xs[0];
      bool lattice = it->second == Op::Max || it->second == Op::Min;
      return make_node(it->second, lattice ? lattice_order(xs) : xs);
    }
    error("unknown function '" + name + "'", at);
  }
};

// ---------------------------------------------------------------------------
// Evaluation in exact fractions; the public evaluate() insists on an integer.

using Lookup = std::function<std::optional<int64_t>(const std::string&)>;

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

  Frac logical(const SymExpr& e, bool all) const {
    for (const auto& a : e.args())
      if (eval(*a).is_zero() == all) return truth(!all);
    return truth(all);
  }
};

// ---------------------------------------------------------------------------
// Linear form a*sym + b, for solve_linear.

struct Linear {
  Frac a;
  Frac b;
  std::string sym;
};

bool has_symbols(const SymExpr& e) {
  if (e.op() == Op::Symbol) return true;
  for (const auto& a : e.args())
    if (has_symbols(*a)) return true;
  return false;
}

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

// ---------------------------------------------------------------------------
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
    case Op::CeilDiv: return kPrecFunc;
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
    case Op::CeilDiv: return class_name(*e) + "(" + join_printed(e->args(), ", ", 0, true) + ")";
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
  }
  return "?";
}

void collect_symbols(const SymExpr& e, std::set<std::string>& out) {
  if (e.op() == Op::Symbol) out.insert(e.name());
  for (const auto& a : e.args()) collect_symbols(*a, out);
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API

std::shared_ptr<const SymExpr> SymExpr::parse(const std::string& text) {
  return Parser(text).parse_all();
}

std::shared_ptr<const SymExpr> SymExpr::integer(int64_t value) {
  return std::make_shared<SymExpr>(Op::Integer, value, "", std::vector<ExprPtr>{});
}

std::shared_ptr<const SymExpr> SymExpr::symbol(const std::string& name) {
  return std::make_shared<SymExpr>(Op::Symbol, 0, name, std::vector<ExprPtr>{});
}

int64_t SymExpr::evaluate(const Lookup& lookup) const {
  Frac result;
  try {
    result = Evaluator(*this, lookup).eval(*this);
  } catch (const ArithError& e) {
    fail(ErrorCode::BadInput, e.what, " while evaluating the size ", to_string());
  }
  if (!result.is_integer())
    fail(ErrorCode::BadInput, "the size ", to_string(), " evaluates to the fraction ", result.num,
         "/", result.den);
  return result.num;
}

std::vector<std::string> SymExpr::symbols() const {
  std::set<std::string> names;
  collect_symbols(*this, names);
  return {names.begin(), names.end()};
}

std::optional<std::pair<std::string, int64_t>> SymExpr::solve_linear(int64_t value) const {
  try {
    std::optional<Linear> form = linear_form(*this);
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
  return print(self);
}

}  // namespace pt2web
