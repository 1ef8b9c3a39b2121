// Guards (program/guard.h): a small reader, printer and evaluator for the
// Python subset torch writes guards in.
#include "program/guard.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "util/error.h"

namespace pt2web {

struct GuardNode {
  enum class Kind { Int, Float, Str, Bool, Name, Subscript, Attribute, Call, Unary, Binary, Compare, And, Or, Not };
  Kind kind = Kind::Int;
  int64_t i = 0;
  double d = 0;
  std::string text;  // name, attribute, string literal, operator
  std::vector<std::shared_ptr<const GuardNode>> children;
  std::vector<std::string> ops;  // a comparison chain's operators
};

namespace {

using Node = std::shared_ptr<const GuardNode>;
using Kind = GuardNode::Kind;

// --- reading ---------------------------------------------------------------

struct Token {
  enum class Type { Number, Name, Str, Op, End } type = Type::End;
  std::string text;
};

std::vector<Token> tokenize(const std::string& code) {
  std::vector<Token> out;
  size_t p = 0;
  auto unreadable = [&](const std::string& what) {
    fail(ErrorCode::Unsupported, "guard \"", code, "\": cannot read ", what, " at character ", p + 1);
  };
  while (p < code.size()) {
    const char c = code[p];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++p;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && p + 1 < code.size() && std::isdigit(static_cast<unsigned char>(code[p + 1])))) {
      size_t q = p;
      while (q < code.size() && (std::isalnum(static_cast<unsigned char>(code[q])) || code[q] == '.' ||
                                 ((code[q] == '+' || code[q] == '-') && (code[q - 1] == 'e' || code[q - 1] == 'E'))))
        ++q;
      out.push_back({Token::Type::Number, code.substr(p, q - p)});
      p = q;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t q = p;
      while (q < code.size() && (std::isalnum(static_cast<unsigned char>(code[q])) || code[q] == '_')) ++q;
      out.push_back({Token::Type::Name, code.substr(p, q - p)});
      p = q;
    } else if (c == '\'' || c == '"') {
      const size_t close = code.find(c, p + 1);
      if (close == std::string::npos) unreadable("an unterminated string");
      out.push_back({Token::Type::Str, code.substr(p + 1, close - p - 1)});
      p = close + 1;
    } else {
      static const char* const kOps[] = {"**", "//", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/",
                                         "%",  "(",  ")",  "[",  "]",  ",", "."};
      bool matched = false;
      for (const char* op : kOps) {
        const size_t n = std::char_traits<char>::length(op);
        if (code.compare(p, n, op) == 0) {
          out.push_back({Token::Type::Op, op});
          p += n;
          matched = true;
          break;
        }
      }
      if (!matched) unreadable(std::string("'") + c + "'");
    }
  }
  out.push_back({Token::Type::End, ""});
  return out;
}

Node make(Kind kind, std::string text = "", std::vector<Node> children = {}) {
  auto n = std::make_shared<GuardNode>();
  n->kind = kind;
  n->text = std::move(text);
  n->children = std::move(children);
  return n;
}

// Recursive descent over Python's expression grammar (the part guards use).
class Reader {
 public:
  explicit Reader(const std::string& code) : code_(code), tokens_(tokenize(code)) {}

  Node read() {
    Node n = disjunction();
    if (peek().type != Token::Type::End) unexpected();
    return n;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  bool at_op(const char* op) const { return peek().type == Token::Type::Op && peek().text == op; }
  bool at_word(const char* word) const { return peek().type == Token::Type::Name && peek().text == word; }
  [[noreturn]] void unexpected() const {
    const Token& t = peek();
    fail(ErrorCode::Unsupported, "guard \"", code_, "\": cannot read ",
         t.type == Token::Type::End ? std::string("the end") : "'" + t.text + "'", " (token ", pos_ + 1, ")");
  }
  void expect(const char* op) {
    if (!at_op(op)) unexpected();
    ++pos_;
  }

  Node disjunction() { return joined(Kind::Or, "or", &Reader::conjunction); }
  Node conjunction() { return joined(Kind::And, "and", &Reader::negation); }
  // operand (word operand)*: one node for the whole chain.
  Node joined(Kind kind, const char* word, Node (Reader::*operand)()) {
    std::vector<Node> items{(this->*operand)()};
    while (at_word(word)) {
      ++pos_;
      items.push_back((this->*operand)());
    }
    return items.size() == 1 ? items[0] : make(kind, word, items);
  }
  Node negation() {
    if (at_word("not")) {
      ++pos_;
      return make(Kind::Not, "not", {negation()});
    }
    return comparison();
  }
  Node comparison() {
    Node first = sum();
    auto n = std::make_shared<GuardNode>();
    n->kind = Kind::Compare;
    n->children.push_back(first);
    for (;;) {
      bool is_compare = false;
      for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) is_compare = is_compare || at_op(op);
      if (!is_compare) break;
      n->ops.push_back(peek().text);
      ++pos_;
      n->children.push_back(sum());
    }
    return n->ops.empty() ? first : Node(n);
  }
  Node sum() {
    Node left = term();
    while (at_op("+") || at_op("-")) {
      std::string op = peek().text;
      ++pos_;
      left = make(Kind::Binary, op, {left, term()});
    }
    return left;
  }
  Node term() {
    Node left = factor();
    while (at_op("*") || at_op("/") || at_op("//") || at_op("%")) {
      std::string op = peek().text;
      ++pos_;
      left = make(Kind::Binary, op, {left, factor()});
    }
    return left;
  }
  Node factor() {
    if (at_op("-") || at_op("+")) {
      std::string op = peek().text;
      ++pos_;
      return make(Kind::Unary, op, {factor()});
    }
    return power();
  }
  Node power() {
    Node base = primary();
    if (at_op("**")) {
      ++pos_;
      return make(Kind::Binary, "**", {base, factor()});
    }
    return base;
  }
  Node primary() {
    Node n = atom();
    for (;;) {
      if (at_op("[")) {
        ++pos_;
        Node index = disjunction();
        expect("]");
        n = make(Kind::Subscript, "", {n, index});
      } else if (at_op(".")) {
        ++pos_;
        if (peek().type != Token::Type::Name) unexpected();
        n = make(Kind::Attribute, peek().text, {n});
        ++pos_;
      } else if (at_op("(")) {
        ++pos_;
        std::vector<Node> call{n};
        while (!at_op(")")) {
          call.push_back(disjunction());
          if (!at_op(",")) break;
          ++pos_;
        }
        expect(")");
        n = make(Kind::Call, "", call);
      } else {
        return n;
      }
    }
  }
  Node atom() {
    const Token t = peek();
    if (t.type == Token::Type::Op && t.text == "(") {
      ++pos_;
      Node inner = disjunction();
      expect(")");
      return inner;
    }
    ++pos_;
    if (t.type == Token::Type::Str) return make(Kind::Str, t.text);
    if (t.type == Token::Type::Name) {
      if (t.text == "True" || t.text == "False") {
        auto n = std::make_shared<GuardNode>();
        n->kind = Kind::Bool;
        n->i = t.text == "True";
        return n;
      }
      if (t.text == "and" || t.text == "or" || t.text == "not") {
        --pos_;
        unexpected();
      }
      return make(Kind::Name, t.text);
    }
    if (t.type == Token::Type::Number) {
      auto n = std::make_shared<GuardNode>();
      const bool is_float = t.text.find_first_of(".eE") != std::string::npos;
      char* end = nullptr;
      if (is_float) {
        n->kind = Kind::Float;
        n->d = std::strtod(t.text.c_str(), &end);
      } else {
        n->kind = Kind::Int;
        n->i = std::strtoll(t.text.c_str(), &end, 10);
      }
      if (end != t.text.c_str() + t.text.size()) {
        --pos_;
        unexpected();
      }
      n->text = t.text;
      return n;
    }
    --pos_;
    unexpected();
  }

  const std::string& code_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

// --- printing (as Python's ast.unparse, after torch drops the `L`) ----------

enum Precedence { kOr = 1, kAnd, kNot, kCompare, kSum = 10, kTerm, kFactor, kPower, kAtom };

int precedence_of(const GuardNode& n) {
  switch (n.kind) {
    case Kind::Or: return kOr;
    case Kind::And: return kAnd;
    case Kind::Not: return kNot;
    case Kind::Compare: return kCompare;
    case Kind::Binary:
      if (n.text == "+" || n.text == "-") return kSum;
      if (n.text == "**") return kPower;
      return kTerm;
    case Kind::Unary: return kFactor;
    default: return kAtom;
  }
}

std::string float_repr(double d) {
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  if (s.find_first_of(".einn") == std::string::npos) s += ".0";
  return s;
}

std::string print(const GuardNode& n, int needed);

std::string print_child(const Node& child, int needed) { return print(*child, needed); }

std::string print(const GuardNode& n, int needed) {
  std::string s;
  const int own = precedence_of(n);
  switch (n.kind) {
    case Kind::Int: s = std::to_string(n.i); break;
    case Kind::Float: s = float_repr(n.d); break;
    case Kind::Bool: s = n.i ? "True" : "False"; break;
    case Kind::Str: s = "'" + n.text + "'"; break;
    case Kind::Name: s = n.text; break;
    case Kind::Subscript: {
      const GuardNode& base = *n.children[0];
      // torch's message names an input by its key: L['x'] prints as x.
      if (base.kind == Kind::Name && base.text == "L" && n.children[1]->kind == Kind::Str) s = n.children[1]->text;
      else s = print_child(n.children[0], kAtom) + "[" + print_child(n.children[1], 0) + "]";
      break;
    }
    case Kind::Attribute: s = print_child(n.children[0], kAtom) + "." + n.text; break;
    case Kind::Call: {
      s = print_child(n.children[0], kAtom) + "(";
      for (size_t k = 1; k < n.children.size(); ++k) s += (k > 1 ? ", " : "") + print_child(n.children[k], 0);
      s += ")";
      break;
    }
    case Kind::Unary: s = n.text + print_child(n.children[0], kFactor); break;
    case Kind::Binary:
      if (n.text == "**") s = print_child(n.children[0], kPower + 1) + " ** " + print_child(n.children[1], kFactor);
      else s = print_child(n.children[0], own) + " " + n.text + " " + print_child(n.children[1], own + 1);
      break;
    case Kind::Compare:
      s = print_child(n.children[0], kCompare + 1);
      for (size_t k = 0; k < n.ops.size(); ++k) s += " " + n.ops[k] + " " + print_child(n.children[k + 1], kCompare + 1);
      break;
    case Kind::And:
    case Kind::Or:
      for (size_t k = 0; k < n.children.size(); ++k)
        s += (k ? " " + n.text + " " : "") + print_child(n.children[k], own + 1);
      break;
    case Kind::Not: s = "not " + print_child(n.children[0], kNot); break;
  }
  return own < needed ? "(" + s + ")" : s;
}

// --- evaluating ------------------------------------------------------------

struct GuardValue {
  enum class Kind { Int, Float, Bool, Str, Source, Sizes, Module, Function, Method } kind = Kind::Int;
  int64_t i = 0;
  double d = 0;
  std::string s;       // string, source path, module or function name, method name
  std::string source;  // a method's source
  std::vector<int64_t> ints;

  static GuardValue of_int(int64_t v) { GuardValue g; g.i = v; return g; }
  static GuardValue of_float(double v) { GuardValue g; g.kind = Kind::Float; g.d = v; return g; }
  static GuardValue of_bool(bool v) { GuardValue g; g.kind = Kind::Bool; g.i = v; return g; }
  bool is_number() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  double as_double() const { return kind == Kind::Float ? d : static_cast<double>(i); }
};

using GKind = GuardValue::Kind;

class Evaluator {
 public:
  Evaluator(const Guard& guard, const GuardSourceLookup& lookup) : guard_(guard), lookup_(lookup) {}

  GuardValue eval(const GuardNode& n) { return value(eval_raw(n)); }

 private:
  [[noreturn]] void cannot(const std::string& what) const {
    fail(ErrorCode::BadInput, "guard \"", guard_.code, "\": ", what);
  }

  // A source used as a value becomes the input's number or string.
  GuardValue value(GuardValue v) {
    if (v.kind != GKind::Source) return v;
    const PyValue* leaf = lookup_(v.s);
    if (!leaf) cannot("the call has no input " + v.s);
    switch (leaf->kind) {
      case PyValue::Kind::Int: return GuardValue::of_int(leaf->i);
      case PyValue::Kind::Bool: return GuardValue::of_bool(leaf->b);
      case PyValue::Kind::Float: return GuardValue::of_float(leaf->f);
      case PyValue::Kind::Str: {
        GuardValue g;
        g.kind = GKind::Str;
        g.s = leaf->s;
        return g;
      }
      default: cannot(v.s + " is a " + py_kind_name(leaf->kind) + ", not a number");
    }
  }

  const Tensor& tensor_at(const std::string& source) {
    const PyValue* leaf = lookup_(source);
    if (!leaf) cannot("the call has no input " + source);
    if (leaf->kind != PyValue::Kind::Tensor) cannot(source + " is not a tensor");
    return leaf->tensor;
  }

  GuardValue number(const GuardNode& n) {
    GuardValue v = eval(n);
    if (!v.is_number()) cannot("expected a number");
    return v;
  }

  GuardValue eval_raw(const GuardNode& n) {
    switch (n.kind) {
      case Kind::Int: return GuardValue::of_int(n.i);
      case Kind::Float: return GuardValue::of_float(n.d);
      case Kind::Bool: return GuardValue::of_bool(n.i != 0);
      case Kind::Str: {
        GuardValue g;
        g.kind = GKind::Str;
        g.s = n.text;
        return g;
      }
      case Kind::Name: {
        GuardValue g;
        if (n.text == "L") {
          g.kind = GKind::Source;
          g.s = "L";
        } else if (n.text == "math" || n.text == "torch") {
          g.kind = GKind::Module;
          g.s = n.text;
        } else if (n.text == "max" || n.text == "min" || n.text == "abs" || n.text == "round" || n.text == "int" ||
                   n.text == "float") {
          g.kind = GKind::Function;
          g.s = n.text;
        } else {
          cannot("unknown name " + n.text);
        }
        return g;
      }
      case Kind::Subscript: return subscript(eval_raw(*n.children[0]), eval(*n.children[1]));
      case Kind::Attribute: return attribute(eval_raw(*n.children[0]), n.text);
      case Kind::Call: {
        GuardValue f = eval_raw(*n.children[0]);
        std::vector<GuardValue> args;
        for (size_t k = 1; k < n.children.size(); ++k) args.push_back(eval(*n.children[k]));
        return call(f, args);
      }
      case Kind::Unary: {
        GuardValue v = number(*n.children[0]);
        if (n.text == "+") return v;
        return v.kind == GKind::Float ? GuardValue::of_float(-v.d) : GuardValue::of_int(-v.i);
      }
      case Kind::Binary: return arithmetic(n.text, number(*n.children[0]), number(*n.children[1]));
      case Kind::Compare: {
        GuardValue left = eval(*n.children[0]);
        for (size_t k = 0; k < n.ops.size(); ++k) {
          GuardValue right = eval(*n.children[k + 1]);
          if (!compare(n.ops[k], left, right)) return GuardValue::of_bool(false);
          left = right;
        }
        return GuardValue::of_bool(true);
      }
      case Kind::And:
        for (const auto& c : n.children)
          if (!truthy(eval(*c))) return GuardValue::of_bool(false);
        return GuardValue::of_bool(true);
      case Kind::Or:
        for (const auto& c : n.children)
          if (truthy(eval(*c))) return GuardValue::of_bool(true);
        return GuardValue::of_bool(false);
      case Kind::Not: return GuardValue::of_bool(!truthy(eval(*n.children[0])));
    }
    cannot("unreadable expression");
  }

  GuardValue subscript(const GuardValue& base, const GuardValue& index) {
    if (base.kind == GKind::Source) {
      GuardValue g = base;
      if (index.kind == GKind::Str) g.s += "['" + index.s + "']";
      else if (index.kind == GKind::Int) g.s += "[" + std::to_string(index.i) + "]";
      else cannot("an input key must be a string or an integer");
      return g;
    }
    if (base.kind == GKind::Sizes && index.kind == GKind::Int) {
      const int64_t n = static_cast<int64_t>(base.ints.size());
      const int64_t k = index.i < 0 ? index.i + n : index.i;
      if (k < 0 || k >= n) cannot("index " + std::to_string(index.i) + " is out of range for " + std::to_string(n) + " dims");
      return GuardValue::of_int(base.ints[static_cast<size_t>(k)]);
    }
    cannot("cannot index this value");
  }

  GuardValue attribute(const GuardValue& base, const std::string& name) {
    GuardValue g;
    if (base.kind == GKind::Source) {
      if (name == "size" || name == "stride" || name == "storage_offset" || name == "dim") {
        g.kind = GKind::Method;
        g.s = name;
        g.source = base.s;
        return g;
      }
      g = base;
      g.s += "." + name;
      return g;
    }
    if (base.kind == GKind::Module) {
      const std::string full = base.s + "." + name;
      if (full == "math.inf") return GuardValue::of_float(INFINITY);
      if (full == "math.nan") return GuardValue::of_float(NAN);
      if (full == "math.pi") return GuardValue::of_float(M_PI);
      g.kind = GKind::Function;
      g.s = full;
      return g;
    }
    cannot("no attribute " + name);
  }

  GuardValue call(const GuardValue& f, const std::vector<GuardValue>& args) {
    if (f.kind == GKind::Method) {
      const Tensor& t = tensor_at(f.source);
      GuardValue g;
      if (f.s == "size" || f.s == "stride") {
        g.kind = GKind::Sizes;
        const Shape& v = f.s == "size" ? t.sizes() : t.strides();
        g.ints.assign(v.begin(), v.end());
        if (!args.empty()) return subscript(g, args[0]);
        return g;
      }
      if (f.s == "dim") return GuardValue::of_int(t.dim());
      return GuardValue::of_int(0);  // storage_offset: inputs are bound as their own storage
    }
    if (f.kind != GKind::Function) cannot("cannot call this value");
    const std::string& name = f.s;
    for (const auto& a : args)
      if (!a.is_number()) cannot(name + " takes numbers");
    auto one = [&]() -> const GuardValue& {
      if (args.size() != 1) cannot(name + " takes one argument");
      return args[0];
    };
    if (name == "max" || name == "min" || name == "torch.sym_max" || name == "torch.sym_min") {
      if (args.empty()) cannot(name + " needs arguments");
      GuardValue best = args[0];
      const bool want_max = name == "max" || name == "torch.sym_max";
      for (const auto& a : args)
        if (want_max ? a.as_double() > best.as_double() : a.as_double() < best.as_double()) best = a;
      return best;
    }
    if (name == "abs") {
      const GuardValue& a = one();
      return a.kind == GKind::Float ? GuardValue::of_float(std::fabs(a.d)) : GuardValue::of_int(std::llabs(a.i));
    }
    if (name == "round" || name == "torch.sym_int" || name == "int" || name == "math.floor" || name == "math.ceil" ||
        name == "math.trunc") {
      const GuardValue& a = one();
      if (a.kind != GKind::Float) return GuardValue::of_int(a.i);
      double r = name == "round" ? std::nearbyint(a.d)
                 : name == "math.floor" ? std::floor(a.d)
                 : name == "math.ceil" ? std::ceil(a.d)
                                       : std::trunc(a.d);
      return GuardValue::of_int(static_cast<int64_t>(r));
    }
    if (name == "torch.sym_float" || name == "float") return GuardValue::of_float(one().as_double());
    if (name == "math.sqrt" || name == "torch._sym_sqrt") return GuardValue::of_float(std::sqrt(one().as_double()));
    if (name == "math.isnan") return GuardValue::of_bool(std::isnan(one().as_double()));
    cannot("unknown function " + name);
  }

  GuardValue arithmetic(const std::string& op, const GuardValue& a, const GuardValue& b) {
    const bool ints = a.kind != GKind::Float && b.kind != GKind::Float;
    if (op == "/") {
      if (b.as_double() == 0) cannot("division by zero");
      return GuardValue::of_float(a.as_double() / b.as_double());
    }
    if (ints) {
      const int64_t x = a.i, y = b.i;
      if (op == "+") return GuardValue::of_int(x + y);
      if (op == "-") return GuardValue::of_int(x - y);
      if (op == "*") return GuardValue::of_int(x * y);
      if (op == "//" || op == "%") {
        if (y == 0) cannot("division by zero");
        int64_t q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) {
          --q;
          r += y;
        }
        return GuardValue::of_int(op == "//" ? q : r);
      }
      if (op == "**") {
        if (y < 0) return GuardValue::of_float(std::pow(double(x), double(y)));
        int64_t p = 1;
        for (int64_t k = 0; k < y; ++k) p *= x;
        return GuardValue::of_int(p);
      }
    }
    const double x = a.as_double(), y = b.as_double();
    if (op == "+") return GuardValue::of_float(x + y);
    if (op == "-") return GuardValue::of_float(x - y);
    if (op == "*") return GuardValue::of_float(x * y);
    if (op == "**") return GuardValue::of_float(std::pow(x, y));
    if (y == 0) cannot("division by zero");
    const double q = std::floor(x / y);
    return GuardValue::of_float(op == "//" ? q : x - q * y);
  }

  static bool compare(const std::string& op, const GuardValue& a, const GuardValue& b) {
    if (a.kind == GKind::Str || b.kind == GKind::Str) {
      const bool same = a.kind == b.kind && a.s == b.s;
      return op == "==" ? same : op == "!=" ? !same : false;
    }
    const bool ints = a.kind != GKind::Float && b.kind != GKind::Float;
    if (ints) {
      if (op == "==") return a.i == b.i;
      if (op == "!=") return a.i != b.i;
      if (op == "<") return a.i < b.i;
      if (op == "<=") return a.i <= b.i;
      if (op == ">") return a.i > b.i;
      return a.i >= b.i;
    }
    const double x = a.as_double(), y = b.as_double();
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    return x >= y;
  }

  bool truthy(const GuardValue& v) const {
    if (v.kind == GKind::Str) return !v.s.empty();
    if (!v.is_number()) cannot("expected a condition");
    return v.as_double() != 0;
  }

  const Guard& guard_;
  const GuardSourceLookup& lookup_;
};

}  // namespace

Guard parse_guard(const std::string& code) {
  Guard g;
  g.code = code;
  g.expr = Reader(code).read();
  return g;
}

std::string guard_text(const Guard& guard) { return print(*guard.expr, 0); }

void check_guard(const Guard& guard, const GuardSourceLookup& lookup) {
  Evaluator evaluator(guard, lookup);
  const GuardValue result = evaluator.eval(*guard.expr);
  const bool holds = result.kind == GKind::Str ? !result.s.empty() : result.as_double() != 0;
  if (!holds) fail(ErrorCode::BadInput, "Guard failed: ", guard_text(guard));
}

}  // namespace pt2web
