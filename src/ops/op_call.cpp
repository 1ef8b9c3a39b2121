#include "ops/op_call.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "util/error.h"

namespace pt2web {

const char* value_kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::None: return "None";
    case Value::Kind::Tensor: return "Tensor";
    case Value::Kind::Int: return "int";
    case Value::Kind::Double: return "float";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::String: return "str";
    case Value::Kind::IntList: return "int[]";
    case Value::Kind::DoubleList: return "float[]";
    case Value::Kind::BoolList: return "bool[]";
    case Value::Kind::TensorList: return "Tensor[]";
    case Value::Kind::OptionalTensorList: return "Tensor?[]";
    case Value::Kind::ScalarType: return "ScalarType";
    case Value::Kind::Device: return "Device";
    case Value::Kind::Layout: return "Layout";
    case Value::Kind::MemoryFormat: return "MemoryFormat";
    case Value::Kind::Graph: return "Graph";
  }
  return "?";
}

namespace {
[[noreturn]] void wrong_kind(const OpCall& call, size_t index, const char* expected) {
  fail(ErrorCode::BadInput, call.where(), "argument '", call.arg_name(index), "' must be ",
       expected, ", got ", value_kind_name(call.arg(index).kind));
}
}  // namespace

std::string OpCall::arg_name(size_t index) const {
  return index < schema_.arguments.size() ? schema_.arguments[index].name
                                          : "#" + std::to_string(index);
}

const Value& OpCall::arg(size_t index) const {
  PT2WEB_CHECK(index < num_args_, where(), "argument index ", index, " out of range");
  return borrowed_ ? *borrowed_[index] : owned_[index];
}

const Tensor& OpCall::tensor(size_t index) const {
  const Value& v = arg(index);
  if (v.kind != Value::Kind::Tensor || !v.tensor.defined()) wrong_kind(*this, index, "a Tensor");
  return v.tensor;
}

Tensor OpCall::optional_tensor(size_t index) const {
  const Value& v = arg(index);
  if (v.is_none()) return Tensor();
  if (v.kind != Value::Kind::Tensor) wrong_kind(*this, index, "a Tensor or None");
  return v.tensor;
}

std::vector<Tensor> OpCall::tensor_list(size_t index) const {
  const Value& v = arg(index);
  if (v.kind != Value::Kind::TensorList && v.kind != Value::Kind::OptionalTensorList)
    wrong_kind(*this, index, "a list of tensors");
  return v.tensors;
}

int64_t OpCall::int_arg(size_t index) const {
  const Value& v = arg(index);
  if (v.kind == Value::Kind::Int) return v.i;
  if (v.kind == Value::Kind::Bool) return v.b ? 1 : 0;
  if (v.kind == Value::Kind::IntList && v.ints.size() == 1) return v.ints[0];
  wrong_kind(*this, index, "an int");
}

std::optional<int64_t> OpCall::optional_int(size_t index) const {
  if (arg(index).is_none()) return std::nullopt;
  return int_arg(index);
}

double OpCall::double_arg(size_t index) const {
  const Value& v = arg(index);
  if (!v.is_number()) wrong_kind(*this, index, "a number");
  return v.to_double();
}

std::optional<double> OpCall::optional_double(size_t index) const {
  if (arg(index).is_none()) return std::nullopt;
  return double_arg(index);
}

bool OpCall::bool_arg(size_t index) const {
  const Value& v = arg(index);
  if (v.kind == Value::Kind::Bool) return v.b;
  if (v.kind == Value::Kind::Int) return v.i != 0;
  wrong_kind(*this, index, "a bool");
}

namespace {

// A double's integer view: truncated, saturated at the int64 range (inf,
// 1e300), 0 for NaN; casting such values directly is undefined behaviour.
int64_t int_view(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
  if (d <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

}  // namespace

Scalar OpCall::scalar(size_t index) const {
  const Value& v = arg(index);
  Scalar s;
  switch (v.kind) {
    case Value::Kind::Bool: s.kind = Scalar::Kind::Bool; s.i = v.b ? 1 : 0; s.d = s.i; return s;
    case Value::Kind::Int: s.kind = Scalar::Kind::Int; s.i = v.i; s.d = static_cast<double>(v.i); return s;
    case Value::Kind::Double: s.kind = Scalar::Kind::Double; s.d = v.d; s.i = int_view(v.d); return s;
    default: wrong_kind(*this, index, "a number");
  }
}

std::optional<Scalar> OpCall::optional_scalar(size_t index) const {
  if (arg(index).is_none()) return std::nullopt;
  return scalar(index);
}

std::vector<int64_t> OpCall::int_list(size_t index) const {
  const Value& v = arg(index);
  if (v.kind == Value::Kind::IntList) return v.ints;
  if (v.kind == Value::Kind::Int) {
    int n = index < schema_.arguments.size() ? schema_.arguments[index].fixed_length : 1;
    return std::vector<int64_t>(std::max(n, 1), v.i);
  }
  if (v.kind == Value::Kind::TensorList && v.tensors.empty()) return {};
  wrong_kind(*this, index, "a list of ints");
}

std::optional<std::vector<int64_t>> OpCall::optional_int_list(size_t index) const {
  if (arg(index).is_none()) return std::nullopt;
  return int_list(index);
}

std::vector<double> OpCall::double_list(size_t index) const {
  const Value& v = arg(index);
  if (v.kind == Value::Kind::DoubleList) return v.doubles;
  if (v.kind == Value::Kind::IntList) return std::vector<double>(v.ints.begin(), v.ints.end());
  if (v.kind == Value::Kind::TensorList && v.tensors.empty()) return {};
  wrong_kind(*this, index, "a list of floats");
}

std::string OpCall::string_arg(size_t index) const {
  const Value& v = arg(index);
  if (v.kind != Value::Kind::String) wrong_kind(*this, index, "a string");
  return v.s;
}

std::optional<std::string> OpCall::optional_string(size_t index) const {
  if (arg(index).is_none()) return std::nullopt;
  return string_arg(index);
}

std::optional<DType> OpCall::optional_dtype(size_t index) const {
  const Value& v = arg(index);
  if (v.is_none()) return std::nullopt;
  if (v.kind != Value::Kind::ScalarType) wrong_kind(*this, index, "a dtype");
  return v.dtype;
}

const Graph& OpCall::graph_arg(size_t index) const {
  const Value& v = arg(index);
  if (v.kind != Value::Kind::Graph || v.graph == nullptr) wrong_kind(*this, index, "a subgraph");
  return *v.graph;
}

SubgraphRunner& OpCall::runner() const {
  PT2WEB_CHECK(runner_ != nullptr, where(), "no subgraph runner");
  return *runner_;
}

RandomSource& OpCall::random() const {
  if (runner_ == nullptr)
    fail(ErrorCode::Unsupported, where(), "a random operator needs a program's random source; it ran outside one");
  return runner_->random_source();
}

}  // namespace pt2web
