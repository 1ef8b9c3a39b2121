// Value: what flows along the graph's edges at run time: tensors, symbolic
// ints (concrete by then), scalars, lists, dtypes and subgraphs. Operator
// arguments are Values bound to schema positions (ops/op_schema.h): this is
// the argument type of every kernel, so it lives with the ops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.h"
#include "util/saturating_cast.h"

namespace pt2web {

struct Graph;  // program/graph.h: a subgraph argument is only passed through ops

struct Value {
  enum class Kind {
    None, Tensor, Int, Double, Bool, String,
    IntList, DoubleList, BoolList, TensorList, OptionalTensorList,
    ScalarType, Device, Layout, MemoryFormat, Graph,
  };

  Kind kind = Kind::None;
  pt2web::Tensor tensor;
  int64_t i = 0;
  double d = 0.0;
  bool b = false;
  std::string s;                  // String, Device
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<bool> bools;
  std::vector<pt2web::Tensor> tensors;  // undefined entries are None (optional lists)
  DType dtype = DType::Float32;
  const pt2web::Graph* graph = nullptr;

  static Value none() { return Value(); }
  static Value from_tensor(pt2web::Tensor t) { Value v; v.kind = Kind::Tensor; v.tensor = std::move(t); return v; }
  static Value from_int(int64_t x) { Value v; v.kind = Kind::Int; v.i = x; return v; }
  static Value from_double(double x) { Value v; v.kind = Kind::Double; v.d = x; return v; }
  static Value from_bool(bool x) { Value v; v.kind = Kind::Bool; v.b = x; return v; }
  static Value from_string(std::string x) { Value v; v.kind = Kind::String; v.s = std::move(x); return v; }
  static Value from_ints(std::vector<int64_t> x) { Value v; v.kind = Kind::IntList; v.ints = std::move(x); return v; }
  static Value from_doubles(std::vector<double> x) { Value v; v.kind = Kind::DoubleList; v.doubles = std::move(x); return v; }
  static Value from_bools(std::vector<bool> x) { Value v; v.kind = Kind::BoolList; v.bools = std::move(x); return v; }
  static Value from_tensors(std::vector<pt2web::Tensor> x) { Value v; v.kind = Kind::TensorList; v.tensors = std::move(x); return v; }
  // A Tensor?[] (index lists): undefined entries are None.
  static Value from_optional_tensors(std::vector<pt2web::Tensor> x) {
    Value v = from_tensors(std::move(x));
    v.kind = Kind::OptionalTensorList;
    return v;
  }
  static Value from_dtype(DType x) { Value v; v.kind = Kind::ScalarType; v.dtype = x; return v; }

  bool is_none() const { return kind == Kind::None; }
  bool is_tensor() const { return kind == Kind::Tensor; }
  bool is_number() const { return kind == Kind::Int || kind == Kind::Double || kind == Kind::Bool; }
  double to_double() const { return kind == Kind::Double ? d : kind == Kind::Bool ? (b ? 1.0 : 0.0) : static_cast<double>(i); }
  int64_t to_int() const { return kind == Kind::Double ? saturating_cast<int64_t>(d) : kind == Kind::Bool ? (b ? 1 : 0) : i; }
};

const char* value_kind_name(Value::Kind kind);

}  // namespace pt2web
