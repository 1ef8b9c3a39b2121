#include "op_call_fuzz.h"

#include <cmath>
#include <limits>

#include "ops/op_call.h"
#include "ops/registry.h"
#include "tensor/tensor.h"
#include "util/error.h"

namespace pt2web::op_fuzz {

namespace {

// Reads the input a byte at a time; past its end, zeros.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool done() const { return pos_ >= size_; }
  uint32_t below(uint32_t n) { return n == 0 ? 0 : next() % n; }
  uint16_t u16() { return static_cast<uint16_t>(next() | (next() << 8)); }

 private:
  const uint8_t* data_;
  size_t size_, pos_ = 0;
};

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

int64_t edge_int(Bytes& in) {
  static const int64_t kEdges[] = {0, 1, -1, 2, 3, -2, 7, 16, (int64_t(1) << 31) - 1, int64_t(1) << 31,
                                   int64_t(1) << 32, (int64_t(1) << 32) + 1, int64_t(1) << 62, kInt64Max, kInt64Min,
                                   -(int64_t(1) << 31), 1000003};
  const uint8_t pick = in.next();
  if (pick < 128) return static_cast<int64_t>(pick % 9) - 2;  // mostly small: -2..6
  return kEdges[pick % (sizeof kEdges / sizeof kEdges[0])];
}

double edge_double(Bytes& in) {
  static const double kEdges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-300, 1e300, 3.4e38, -3.4e38, 65504.0,
                                  std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN(), 9.2e18, -9.3e18};
  return kEdges[in.below(sizeof kEdges / sizeof kEdges[0])];
}

DType any_dtype(Bytes& in) {
  static const DType kTypes[] = {DType::Float32, DType::Float32, DType::Float64, DType::Int64, DType::Int32,
                                 DType::Bool,    DType::Float16, DType::BFloat16, DType::UInt8, DType::Int8,
                                 DType::Int16,   DType::Complex64};
  return kTypes[in.below(sizeof kTypes / sizeof kTypes[0])];
}

// A small tensor: up to 4 dims of 0..4, values from the edges.
Tensor small_tensor(Bytes& in) {
  const DType dtype = any_dtype(in);
  const uint32_t rank = in.below(5);
  Shape sizes;
  for (uint32_t d = 0; d < rank; ++d) sizes.push_back(in.below(5));
  Tensor t = Tensor::empty(dtype, sizes);
  const int64_t n = t.numel();
  Tensor values = Tensor::empty(DType::Float64, sizes);
  for (int64_t k = 0; k < n; ++k) {
    const uint8_t pick = in.next();
    values.data<double>()[k] = pick < 200 ? static_cast<double>(pick % 7) - 2 : edge_double(in);
  }
  // Out-of-range values (NaN to an int) are the conversion's business; small ones are exact.
  return dtype == DType::Float64 ? values : values.to(dtype);
}

class ChainBuilder {
 public:
  ChainBuilder(Bytes& in, std::vector<Tensor>& results) : in_(in), results_(results) {}

  Tensor tensor() {
    if (!results_.empty() && in_.below(3) == 0) return results_[in_.below(static_cast<uint32_t>(results_.size()))];
    return small_tensor(in_);
  }

  std::vector<int64_t> ints(const SchemaArgument& a) {
    size_t n = a.fixed_length > 0 ? static_cast<size_t>(a.fixed_length) : in_.below(5);
    std::vector<int64_t> out;
    for (size_t k = 0; k < n; ++k) out.push_back(edge_int(in_));
    return out;
  }

  Value argument(const SchemaArgument& a) {
    if ((a.is_optional || a.default_value) && in_.below(4) == 0)
      return a.default_value ? *a.default_value : Value::none();
    const std::string& t = a.base_type;
    if (t == "Tensor") {
      if (!a.is_list) return Value::from_tensor(tensor());
      std::vector<Tensor> list;
      for (uint32_t k = 0, n = in_.below(4); k < n; ++k) list.push_back(tensor());
      return a.type.find("?[") != std::string::npos ? Value::from_optional_tensors(list) : Value::from_tensors(list);
    }
    if (t == "int" || t == "SymInt") return a.is_list ? Value::from_ints(ints(a)) : Value::from_int(edge_int(in_));
    if (t == "float") {
      if (!a.is_list) return Value::from_double(edge_double(in_));
      std::vector<double> list;
      for (uint32_t k = 0, n = in_.below(4); k < n; ++k) list.push_back(edge_double(in_));
      return Value::from_doubles(list);
    }
    if (t == "bool") {
      if (!a.is_list) return Value::from_bool(in_.below(2) == 1);
      std::vector<bool> list;
      for (uint32_t k = 0, n = a.fixed_length > 0 ? static_cast<uint32_t>(a.fixed_length) : in_.below(4); k < n; ++k)
        list.push_back(in_.below(2) == 1);
      return Value::from_bools(list);
    }
    if (t == "Scalar") return in_.below(2) ? Value::from_int(edge_int(in_)) : Value::from_double(edge_double(in_));
    if (t == "ScalarType") return Value::from_dtype(any_dtype(in_));
    if (t == "str") {
      static const char* const kWords[] = {"none", "mean", "sum", "linear", "nearest", "left", "right", "reflect",
                                           "replicate", "tanh", "floor", "trunc", "", "ij", "xy", "reduced"};
      return Value::from_string(kWords[in_.below(sizeof kWords / sizeof kWords[0])]);
    }
    // Layouts, devices, memory formats, generators: the default or None.
    return a.default_value ? *a.default_value : Value::none();
  }

 private:
  Bytes& in_;
  std::vector<Tensor>& results_;
};

bool callable(const OpSchema& schema) {
  if (schema.name.rfind("higher_order::", 0) == 0) return false;
  for (const auto& a : schema.arguments)
    if (a.base_type == "Any" || a.base_type == "Graph" || a.is_variadic) return false;
  return true;
}

}  // namespace

const std::vector<std::string>& fuzzable_operators() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& name : op_table().names())
      if (callable(op_table().find(name)->schema)) out.push_back(name);
    return out;
  }();
  return names;
}

ChainResult run_op_call_chain(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  ChainResult result;
  const auto& ops = fuzzable_operators();
  std::vector<Tensor> results;
  ChainBuilder builder(in, results);
  for (int step = 0; step < 3 && !in.done(); ++step) {
    const std::string& name = ops[in.u16() % ops.size()];
    const OpEntry* entry = op_table().find(name);
    std::vector<Value> args;
    for (const auto& a : entry->schema.arguments) args.push_back(builder.argument(a));
    result.calls.push_back(name);
    try {
      OpCall call(entry->schema, std::move(args), nullptr);
      entry->kernel(call);
      for (const Value& v : call.outputs)
        if (v.is_tensor() && v.tensor.defined()) results.push_back(v.tensor);
    } catch (const Error& e) {
      if (e.code() == ErrorCode::Internal) {
        result.finding = name + ": Internal error: " + e.what();
        return result;
      }
    } catch (const std::exception& e) {
      result.finding = name + ": exception other than pt2web::Error: " + e.what();
      return result;
    }
  }
  return result;
}

}  // namespace pt2web::op_fuzz
