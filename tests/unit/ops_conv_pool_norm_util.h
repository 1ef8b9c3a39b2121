// Helpers for the convolution / pooling / normalization unit tests: build
// small tensors, call a kernel by its qualified name with schema defaults
// filled in, and compare results.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ops/registry.h"
#include "util/error.h"

namespace pt2web {
namespace test_cpn {

inline Tensor make(const Shape& shape, const std::vector<double>& values, DType dtype = DType::Float32) {
  Tensor t = Tensor::empty(DType::Float64, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<double>()[i] = values[i];
  return t.to(dtype);
}

inline Value T(const Tensor& t) { return Value::from_tensor(t); }
inline Value I(int64_t v) { return Value::from_int(v); }
inline Value F(double v) { return Value::from_double(v); }
inline Value B(bool v) { return Value::from_bool(v); }
inline Value L(std::vector<int64_t> v) { return Value::from_ints(std::move(v)); }
inline Value FL(std::vector<double> v) { return Value::from_doubles(std::move(v)); }
inline Value S(const std::string& s) { return Value::from_string(s); }
inline Value N() { return Value::none(); }

// Runs op `name` ("aten::conv2d.default"); missing trailing arguments take
// their schema defaults. Returns all outputs.
inline std::vector<Value> call_all(const std::string& name, std::vector<Value> args) {
  const OpEntry* entry = op_table().find(name);
  REQUIRE(entry != nullptr);
  for (size_t i = args.size(); i < entry->schema.arguments.size(); ++i) {
    REQUIRE(entry->schema.arguments[i].default_value.has_value());
    args.push_back(*entry->schema.arguments[i].default_value);
  }
  OpCall c(entry->schema, std::move(args), nullptr);
  entry->kernel(c);
  return c.outputs;
}

inline Tensor call(const std::string& name, std::vector<Value> args) {
  return call_all(name, std::move(args)).at(0).tensor;
}

inline ErrorCode error_of(const std::string& name, std::vector<Value> args) {
  try {
    call_all(name, std::move(args));
  } catch (const Error& e) {
    return e.code();
  }
  FAIL("expected " << name << " to throw");
  return ErrorCode::Internal;
}

inline void check_values(const Tensor& t, const Shape& shape, const std::vector<double>& want, double eps = 1e-6) {
  REQUIRE(t.sizes() == shape);
  REQUIRE(t.numel() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    const double got = t.item_as_double(static_cast<int64_t>(i));
    if (std::isnan(want[i])) CHECK(std::isnan(got));
    else CHECK(got == Approx(want[i]).epsilon(eps).margin(eps));
  }
}

}  // namespace test_cpn
}  // namespace pt2web
