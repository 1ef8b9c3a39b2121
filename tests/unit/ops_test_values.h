// Helpers shared by the operator unit tests (elementwise, reductions):
// building small tensors from literal values, wrapping arguments as Values,
// and calling an operator by name with its schema defaults filled in.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ops/registry.h"

namespace pt2web::test_values {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

inline Tensor make(const Shape& shape, const std::vector<double>& values, DType dtype = DType::Float32) {
  Tensor t = Tensor::empty(DType::Float64, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<double>()[i] = values[i];
  return t.to(dtype);
}

inline Tensor make_i64(const Shape& shape, const std::vector<int64_t>& values) {
  Tensor t = Tensor::empty(DType::Int64, shape);
  for (size_t i = 0; i < values.size(); ++i) t.data<int64_t>()[i] = values[i];
  return t;
}

inline Value tv(const Tensor& t) { return Value::from_tensor(t); }
inline Value iv(int64_t i) { return Value::from_int(i); }
inline Value dv(double d) { return Value::from_double(d); }
inline Value bv(bool b) { return Value::from_bool(b); }
inline Value sv(const std::string& s) { return Value::from_string(s); }
inline Value none() { return Value::none(); }
inline Value ints(std::vector<int64_t> v) { return Value::from_ints(std::move(v)); }
inline Value dt(DType d) { return Value::from_dtype(d); }

// Calls an operator with positional args ("aten::exp" means aten::exp.default);
// missing trailing args take their defaults (None for optional ones).
inline std::vector<Value> call(const std::string& name, std::vector<Value> args) {
  bool has_overload = name.find('.') != std::string::npos;
  const OpEntry* entry = op_table().find(has_overload ? name : name + ".default");
  REQUIRE(entry != nullptr);
  for (size_t i = args.size(); i < entry->schema.arguments.size(); ++i) {
    const auto& a = entry->schema.arguments[i];
    REQUIRE((a.default_value.has_value() || a.is_optional));
    args.push_back(a.default_value ? *a.default_value : Value::none());
  }
  OpCall c(entry->schema, args, nullptr);
  entry->kernel(c);
  return c.outputs;
}

inline Tensor call1(const std::string& name, std::vector<Value> args) {
  return call(name, std::move(args)).at(0).tensor;
}

}  // namespace pt2web::test_values
