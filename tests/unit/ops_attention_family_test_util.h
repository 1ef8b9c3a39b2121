// Helpers for the attention, recurrent and einsum operator tests: small
// tensors from literal values and direct kernel calls through the op table.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ops/registry.h"
#include "util/error.h"

namespace pt2web {
namespace family_test {

// A tensor of `shape` holding `values` (row-major), converted to dtype.
inline Tensor make(DType dtype, const Shape& shape, const std::vector<double>& values) {
  Tensor t = Tensor::empty(DType::Float64, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<double>()[i] = values[i];
  return t.to(dtype);
}

inline Value tv(const Tensor& t) { return Value::from_tensor(t); }
inline Value tl(const std::vector<Tensor>& ts) { return Value::from_tensors(ts); }

// Calls the operator `name` ("aten::lstm.input") with the leading arguments
// given and the rest at their schema defaults; returns its outputs.
inline std::vector<Value> call(const std::string& name, std::vector<Value> args) {
  const OpEntry* entry = op_table().find(name);
  REQUIRE(entry != nullptr);
  for (size_t i = args.size(); i < entry->schema.arguments.size(); ++i) {
    REQUIRE(entry->schema.arguments[i].default_value.has_value());
    args.push_back(*entry->schema.arguments[i].default_value);
  }
  OpCall c(entry->schema, args, nullptr);
  entry->kernel(c);
  return c.outputs;
}

// The error code `call` throws, or Internal (which no check expects) when it does not throw.
inline ErrorCode error_code_of(const std::string& name, std::vector<Value> args) {
  try {
    call(name, std::move(args));
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::Internal;
}

inline void check_values(const Tensor& t, const Shape& shape, const std::vector<double>& want, double margin = 1e-6) {
  REQUIRE(t.sizes() == shape);
  for (size_t i = 0; i < want.size(); ++i) CHECK(t.item_as_double(i) == Approx(want[i]).margin(margin));
}

}  // namespace family_test
}  // namespace pt2web
