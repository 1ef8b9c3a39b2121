// The one helper set of the operator unit tests (tests/unit/ops/<folder>/):
// small tensors from literal values, arguments wrapped as Values, an
// operator called by name with its schema defaults filled in, and result
// checks. Kernels run directly through the op table (no program, no
// executor), so a test names exactly the overload it exercises.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ops/registry.h"
#include "util/error.h"

namespace pt2web::op_test {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// A tensor of `shape` holding `values` (row-major), converted to dtype
// (through float64, so integers up to 2^53 are exact).
inline Tensor make(const Shape& shape, const std::vector<double>& values, DType dtype = DType::Float32) {
  Tensor t = Tensor::empty(DType::Float64, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<double>()[i] = values[i];
  return t.to(dtype);
}
inline Tensor make(DType dtype, const Shape& shape, const std::vector<double>& values) {
  return make(shape, values, dtype);
}
inline Tensor make_i64(const Shape& shape, const std::vector<int64_t>& values) {
  Tensor t = Tensor::empty(DType::Int64, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<int64_t>()[i] = values[i];
  return t;
}
inline Tensor make_bool(const Shape& shape, const std::vector<bool>& values) {
  Tensor t = Tensor::empty(DType::Bool, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<bool>()[i] = values[i];
  return t;
}

inline Value tv(const Tensor& t) { return Value::from_tensor(t); }
inline Value tl(std::vector<Tensor> ts) { return Value::from_tensors(std::move(ts)); }
inline Value optional_tl(std::vector<Tensor> ts) { return Value::from_optional_tensors(std::move(ts)); }
inline Value iv(int64_t i) { return Value::from_int(i); }
inline Value dv(double d) { return Value::from_double(d); }
inline Value bv(bool b) { return Value::from_bool(b); }
inline Value sv(const std::string& s) { return Value::from_string(s); }
inline Value none() { return Value::none(); }
inline Value ints(std::vector<int64_t> v) { return Value::from_ints(std::move(v)); }
inline Value doubles(std::vector<double> v) { return Value::from_doubles(std::move(v)); }
inline Value dt(DType d) { return Value::from_dtype(d); }

// Calls operator `name` ("aten::exp" means aten::exp.default) with the
// leading arguments given; the rest take their schema defaults (None for
// optional ones without one). Returns all outputs.
// A run context with a seeded random source and no subgraphs, for the
// random operators (pass it to call()).
class RandomRun : public SubgraphRunner {
 public:
  explicit RandomRun(uint64_t seed) : random_(seed) {}
  std::vector<Value> run_subgraph(const Graph&, const std::vector<Value>&) override { return {}; }
  RandomSource& random_source() override { return random_; }

 private:
  RandomSource random_;
};

inline std::vector<Value> call(const std::string& name, std::vector<Value> args, SubgraphRunner* runner = nullptr) {
  const bool has_overload = name.find('.') != std::string::npos;
  const OpEntry* entry = op_table().find(has_overload ? name : name + ".default");
  INFO("operator " << name);
  REQUIRE(entry != nullptr);
  for (size_t i = args.size(); i < entry->schema.arguments.size(); ++i) {
    const auto& a = entry->schema.arguments[i];
    REQUIRE((a.default_value.has_value() || a.is_optional));
    args.push_back(a.default_value ? *a.default_value : Value::none());
  }
  OpCall c(entry->schema, std::move(args), runner);
  entry->kernel(c);
  return c.outputs;
}

// The first output, which must be a tensor.
inline Tensor call1(const std::string& name, std::vector<Value> args) {
  return call(name, std::move(args)).at(0).tensor;
}

// The code of the error `call` throws; Internal (which no check expects)
// when it does not throw.
inline ErrorCode error_code_of(const std::string& name, std::vector<Value> args) {
  try {
    call(name, std::move(args));
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::Internal;
}

inline std::vector<double> values_of(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.item_as_double(i));
  return out;
}

// t has `shape` and, element by element, `want` within eps (relative and
// absolute); NaN matches NaN and infinities match exactly.
inline void check_values(const Tensor& t, const Shape& shape, const std::vector<double>& want, double eps = 1e-6) {
  REQUIRE(t.sizes() == shape);
  REQUIRE(t.numel() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    const double got = t.item_as_double(static_cast<int64_t>(i));
    INFO("element " << i);
    if (std::isnan(want[i])) CHECK(std::isnan(got));
    else if (std::isinf(want[i])) CHECK(got == want[i]);
    else CHECK(got == Approx(want[i]).epsilon(eps).margin(eps));
  }
}

}  // namespace pt2web::op_test
