#include "ops/op_schema.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <tuple>
#include <utility>

#include "ops/schema_name.h"
#include "util/error.h"

namespace pt2web {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  size_t b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Splits at commas that are not inside brackets or parentheses.
std::vector<std::string> split_top_level(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : s) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) parts.push_back(trim(current));
  return parts;
}

Value parse_scalar_literal(const std::string& text, const std::string& base_type) {
  if (text == "None") return Value::none();
  if (text == "True") return Value::from_bool(true);
  if (text == "False") return Value::from_bool(false);
  if (text == "Mean") return Value::from_int(1);  // at::Reduction::Mean
  if (text == "contiguous_format") {
    Value v;
    v.kind = Value::Kind::MemoryFormat;
    v.i = 1;
    return v;
  }
  if (base_type == "ScalarType") return Value::from_dtype(dtype_from_name(text));  // "dtype=long"
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\''))
    return Value::from_string(text.substr(1, text.size() - 2));
  if (text == "inf") return Value::from_double(INFINITY);
  if (text == "-inf") return Value::from_double(-INFINITY);
  bool is_float = text.find_first_of(".eE") != std::string::npos && text.find("0x") != 0;
  char* end = nullptr;
  if (is_float || base_type == "float") {
    double d = std::strtod(text.c_str(), &end);
    PT2WEB_CHECK(end && *end == '\0', "bad float default '", text, "'");
    return Value::from_double(d);
  }
  long long n = std::strtoll(text.c_str(), &end, 10);
  PT2WEB_CHECK(end && *end == '\0', "bad default '", text, "'");
  return Value::from_int(n);
}

Value parse_default(const std::string& text, const SchemaArgument& arg) {
  if (text == "None") return Value::none();
  if (!arg.is_list) return parse_scalar_literal(text, arg.base_type);
  std::vector<std::string> items;
  if (text.front() == '[') {
    items = split_top_level(text.substr(1, text.size() - 2));
  } else {
    // A single value for a fixed-length list repeats: "int[2] padding=0".
    for (int k = 0; k < std::max(arg.fixed_length, 1); ++k) items.push_back(text);
  }
  if (arg.base_type == "bool") {
    std::vector<bool> out;
    for (auto& item : items) out.push_back(item == "True");
    return Value::from_bools(out);
  }
  if (arg.base_type == "float") {
    std::vector<double> out;
    for (auto& item : items) out.push_back(std::strtod(item.c_str(), nullptr));
    return Value::from_doubles(out);
  }
  if (arg.base_type == "Tensor") {
    PT2WEB_CHECK(items.empty(), "tensor list defaults must be empty");
    return Value::from_tensors({});
  }
  std::vector<int64_t> out;
  for (auto& item : items) out.push_back(std::strtoll(item.c_str(), nullptr, 10));
  return Value::from_ints(out);
}

SchemaArgument parse_argument(const std::string& text, bool kwarg_only) {
  SchemaArgument arg;
  arg.kwarg_only = kwarg_only;
  std::string decl = text;
  std::string default_text;
  size_t eq = text.find('=');
  if (eq != std::string::npos) {
    decl = trim(text.substr(0, eq));
    default_text = trim(text.substr(eq + 1));
  }
  size_t space = decl.find_last_of(' ');
  PT2WEB_CHECK(space != std::string::npos, "schema argument without a name: '", text, "'");
  arg.name = decl.substr(space + 1);
  std::string type = trim(decl.substr(0, space));
  // Strip alias annotations such as "Tensor(a!)" or "Tensor(a)".
  size_t paren = type.find('(');
  if (paren != std::string::npos) {
    size_t close = type.find(')', paren);
    arg.is_mutable = type.substr(paren, close - paren).find('!') != std::string::npos;
    type = type.substr(0, paren) + type.substr(close + 1);
  }
  if (type.size() > 3 && type.compare(type.size() - 3, 3, "...") == 0) {
    arg.is_variadic = true;
    type = type.substr(0, type.size() - 3) + "[]";
  }
  arg.type = type;
  std::string base = type;
  if (!base.empty() && base.back() == '?') {
    arg.is_optional = true;
    base.pop_back();
  }
  size_t bracket = base.find('[');
  if (bracket != std::string::npos) {
    arg.is_list = true;
    std::string inside = base.substr(bracket + 1, base.find(']') - bracket - 1);
    arg.fixed_length = inside.empty() ? 0 : std::atoi(inside.c_str());
    base = base.substr(0, bracket);
  }
  if (!base.empty() && base.back() == '?') {  // "Tensor?[]"
    base.pop_back();
  }
  if (base == "SymInt") base = "int";
  if (base == "SymFloat") base = "float";
  if (base == "SymBool") base = "bool";
  arg.base_type = base;
  if (!default_text.empty()) arg.default_value = parse_default(default_text, arg);
  return arg;
}

}  // namespace

int OpSchema::argument_index(const std::string& arg) const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].name == arg) return static_cast<int>(i);
  return -1;
}

namespace {

// The name and overload before the argument list.
std::pair<std::string, std::string> schema_name_parts(const std::string& text) {
  size_t open = text.find('(');
  PT2WEB_CHECK(open != std::string::npos, "malformed schema '", text, "'");
  std::string full_name = trim(text.substr(0, open));
  size_t dot = full_name.find('.');
  if (dot == std::string::npos) return {full_name, "default"};
  return {full_name.substr(0, dot), full_name.substr(dot + 1)};
}

}  // namespace

std::string schema_qualified_name(const std::string& text) {
  auto [name, overload] = schema_name_parts(text);
  return name + "." + overload;
}

OpSchema parse_op_schema(const std::string& text) {
  OpSchema schema;
  schema.text = text;
  size_t open = text.find('(');
  size_t arrow = text.rfind("->");
  PT2WEB_CHECK(open != std::string::npos && arrow != std::string::npos, "malformed schema '", text, "'");
  size_t close = text.rfind(')', arrow);
  std::tie(schema.name, schema.overload) = schema_name_parts(text);
  bool kwarg_only = false;
  for (const std::string& part : split_top_level(text.substr(open + 1, close - open - 1))) {
    if (part == "*") {
      kwarg_only = true;
      continue;
    }
    schema.arguments.push_back(parse_argument(part, kwarg_only));
  }
  std::string returns = trim(text.substr(arrow + 2));
  if (!returns.empty() && returns.front() == '(') returns = returns.substr(1, returns.size() - 2);
  for (const std::string& r : split_top_level(returns)) {
    std::string type = r;
    size_t paren = type.find('(');
    if (paren != std::string::npos) type = type.substr(0, paren) + type.substr(type.find(')') + 1);
    size_t space = type.find(' ');
    if (space != std::string::npos) type = type.substr(0, space);
    if (!type.empty()) schema.returns.push_back(type);
  }
  return schema;
}

}  // namespace pt2web
