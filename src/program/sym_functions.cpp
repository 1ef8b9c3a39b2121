// torch's and sympy's named functions on SymValues (sym_functions.h).
#include "program/sym_functions.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

namespace pt2web::sym_detail {

namespace {

constexpr size_t kAny = std::numeric_limits<size_t>::max();

using Fn = SymValue (*)(const std::vector<SymValue>&);

int64_t integer_of(const SymValue& v, const char* what) {
  if (v.is_float || !v.exact.is_integer()) throw ArithError{std::string(what) + " needs integer arguments"};
  return v.exact.num;
}

// Opaque float functions: sympy leaves them unevaluated on symbols; with
// numbers torch computes them with Python's math module.
double (*opaque_function(const std::string& name))(double) {
  static const std::map<std::string, double (*)(double)> table = {
      {"sqrt", [](double x) { return std::sqrt(x); }},   {"cos", [](double x) { return std::cos(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},   {"sin", [](double x) { return std::sin(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},   {"tan", [](double x) { return std::tan(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},   {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},   {"atan", [](double x) { return std::atan(x); }},
      {"exp", [](double x) { return std::exp(x); }},     {"log", [](double x) { return std::log(x); }},
      {"asinh", [](double x) { return std::asinh(x); }}, {"log2", [](double x) { return std::log2(x); }}};
  auto it = table.find(name);
  return it == table.end() ? nullptr : it->second;
}

const std::string kOpaquePrefix = "OpaqueUnaryFn_";

// Python's round(x, digits) for a float: half to even on the scaled value.
double round_decimal(double x, int64_t digits) {
  double scale = std::pow(10.0, static_cast<double>(digits));
  double scaled = x * scale;
  double rounded = std::nearbyint(scaled);  // the default rounding mode: to nearest, ties to even
  return rounded / scale;
}

// torch's test of a tensor layout (sizes then strides, n of each): dims of
// size 1 aside, sorted by stride each stride is the product of the sizes
// below it, starting at 1.
bool non_overlapping_and_dense(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
  if (sizes.size() == 1) return strides[0] == 1 || sizes[0] < 2;
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (size_t i : order) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected = checked_mul(expected, sizes[i]);
  }
  return true;
}

const std::map<std::string, std::pair<std::pair<size_t, size_t>, Fn>>& functions() {
  static const std::map<std::string, std::pair<std::pair<size_t, size_t>, Fn>> table = {
      {"ToFloat", {{1, 1}, [](const std::vector<SymValue>& a) { return SymValue::of_float(a[0].as_double()); }}},
      {"TruncToFloat",
       {{1, 1}, [](const std::vector<SymValue>& a) { return SymValue::of_float(std::trunc(a[0].as_double())); }}},
      {"FloatPow",
       {{2, 2},
        [](const std::vector<SymValue>& a) { return SymValue::of_float(std::pow(a[0].as_double(), a[1].as_double())); }}},
      {"RoundDecimal",
       {{2, 2},
        [](const std::vector<SymValue>& a) {
          return SymValue::of_float(round_decimal(a[0].as_double(), integer_of(a[1], "RoundDecimal")));
        }}},
      {"Where", {{3, 3}, [](const std::vector<SymValue>& a) { return a[0].is_zero() ? a[2] : a[1]; }}},
      {"Abs",
       {{1, 1},
        [](const std::vector<SymValue>& a) {
          if (a[0].is_float) return SymValue::of_float(std::fabs(a[0].real));
          return SymValue::of(a[0].exact.num < 0 ? -a[0].exact : a[0].exact);
        }}},
      {"LShift",
       {{2, 2},
        [](const std::vector<SymValue>& a) {
          int64_t shift = integer_of(a[1], "LShift");
          if (shift < 0) throw ArithError{"a negative shift count"};
          return SymValue::of(Frac::of(integer_of(a[0], "LShift")) * power(Frac::of(2), Frac::of(shift)));
        }}},
      {"RShift",
       {{2, 2},
        [](const std::vector<SymValue>& a) {
          int64_t shift = integer_of(a[1], "RShift");
          if (shift < 0) throw ArithError{"a negative shift count"};
          return SymValue::of(floor_divide(Frac::of(integer_of(a[0], "RShift")), power(Frac::of(2), Frac::of(shift))));
        }}},
      {"BitwiseFn_bitwise_and",
       {{2, 2},
        [](const std::vector<SymValue>& a) {
          return SymValue::of(Frac::of(integer_of(a[0], "bitwise_and") & integer_of(a[1], "bitwise_and")));
        }}},
      {"BitwiseFn_bitwise_or",
       {{2, 2},
        [](const std::vector<SymValue>& a) {
          return SymValue::of(Frac::of(integer_of(a[0], "bitwise_or") | integer_of(a[1], "bitwise_or")));
        }}},
      {"IsNonOverlappingAndDenseIndicator",
       {{2, kAny},
        [](const std::vector<SymValue>& a) {
          if (a.size() % 2 != 0) throw ArithError{"IsNonOverlappingAndDenseIndicator needs sizes and strides"};
          std::vector<int64_t> sizes, strides;
          for (size_t i = 0; i < a.size(); ++i)
            (i < a.size() / 2 ? sizes : strides).push_back(integer_of(a[i], "IsNonOverlappingAndDenseIndicator"));
          return SymValue::of(Frac::of(non_overlapping_and_dense(sizes, strides) ? 1 : 0));
        }}},
  };
  return table;
}

}  // namespace

bool is_known_function(const std::string& name, size_t* min_args, size_t* max_args) {
  size_t lo = 1, hi = 1;
  bool known = false;
  if (name.compare(0, kOpaquePrefix.size(), kOpaquePrefix) == 0) {
    known = opaque_function(name.substr(kOpaquePrefix.size())) != nullptr;
  } else if (auto it = functions().find(name); it != functions().end()) {
    known = true;
    lo = it->second.first.first;
    hi = it->second.first.second;
  }
  if (min_args) *min_args = lo;
  if (max_args) *max_args = hi;
  return known;
}

SymValue apply_function(const std::string& name, const std::vector<SymValue>& args) {
  if (name.compare(0, kOpaquePrefix.size(), kOpaquePrefix) == 0) {
    auto fn = opaque_function(name.substr(kOpaquePrefix.size()));
    if (!fn || args.size() != 1) throw ArithError{"unknown function " + name};
    return SymValue::of_float(fn(args[0].as_double()));
  }
  auto it = functions().find(name);
  if (it == functions().end()) throw ArithError{"unknown function " + name};
  return it->second.second(args);
}

Frac round_to_integer(double value, const std::string& how) {
  double r = how == "floor" ? std::floor(value)
             : how == "ceil" ? std::ceil(value)
             : how == "trunc" ? std::trunc(value)
                              : std::nearbyint(value);
  if (!std::isfinite(r) || r < -9.2e18 || r > 9.2e18)
    throw ArithError{"the float " + std::to_string(value) + " has no int64 value"};
  return Frac::of(static_cast<int64_t>(r));
}

}  // namespace pt2web::sym_detail
