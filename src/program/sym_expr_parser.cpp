// The SymExpr parser: one recursive-descent grammar for sympy's srepr form
// (Mul(Integer(2), Symbol('s0', integer=True))) and its infix str() form.
#include <cctype>
#include <cstdlib>
#include <map>

#include "program/sym_expr_internal.h"
#include "util/error.h"

namespace pt2web::sym_detail {
namespace {

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
    return is_float ? float_literal(literal, start) : decimal(literal, start, "");
  }

  // A float (sympy's Float, a Python float): kept as its text, evaluated in
  // double precision.
  ExprPtr float_literal(const std::string& text, size_t at) {
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) error("bad float '" + text + "'", at);
    return make_node(Op::Float, {}, text);
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
      if (args[0].is_string) return float_literal(args[0].text, args[0].pos);
      return make_node(Op::Function, expressions(name, args), "ToFloat");
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
    if (name == "Identity") {
      check_count(name, args, 1, 1, at);
      return xs[0];
    }
    if (name == "TruncToInt" || name == "FloorToInt" || name == "CeilToInt" || name == "RoundToInt" ||
        name == "floor" || name == "ceiling") {
      check_count(name, args, 1, 1, at);
      return make_node(Op::ToInt, xs, name);
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
    size_t lo = 0, hi = 0;
    if (is_known_function(name, &lo, &hi)) {
      check_count(name, args, lo, hi, at);
      return make_node(Op::Function, xs, name);
    }
    error("unknown function '" + name + "'", at);
  }
};


}  // namespace

ExprPtr parse_expression(const std::string& text) { return Parser(text).parse_all(); }

}  // namespace pt2web::sym_detail
