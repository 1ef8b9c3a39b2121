// PyValue: the Python values that cross the program boundary. User inputs and
// outputs (pytrees of tensors and scalars), example inputs and unpickled state
// dicts are all PyValues.
//
// A dict keeps insertion order (as Python's does) in parallel key/value vectors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace pt2web {

struct PyValue {
  enum class Kind { None, Bool, Int, Float, Str, Tensor, Tuple, List, Dict };

  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0.0;
  std::string s;                // Str; for a namedtuple-like Tuple, its type name
  pt2web::Tensor tensor;
  std::vector<PyValue> items;   // Tuple and List elements; Dict values
  std::vector<PyValue> keys;    // Dict keys (same length as items)

  static PyValue none() { return PyValue(); }
  static PyValue from_bool(bool v) { PyValue p; p.kind = Kind::Bool; p.b = v; return p; }
  static PyValue from_int(int64_t v) { PyValue p; p.kind = Kind::Int; p.i = v; return p; }
  static PyValue from_float(double v) { PyValue p; p.kind = Kind::Float; p.f = v; return p; }
  static PyValue from_str(std::string v) { PyValue p; p.kind = Kind::Str; p.s = std::move(v); return p; }
  static PyValue from_tensor(pt2web::Tensor t) { PyValue p; p.kind = Kind::Tensor; p.tensor = std::move(t); return p; }
  static PyValue tuple(std::vector<PyValue> v) { PyValue p; p.kind = Kind::Tuple; p.items = std::move(v); return p; }
  static PyValue list(std::vector<PyValue> v) { PyValue p; p.kind = Kind::List; p.items = std::move(v); return p; }
  static PyValue dict() { PyValue p; p.kind = Kind::Dict; return p; }

  bool is_none() const { return kind == Kind::None; }
  // Dict lookup by string key; nullptr when absent.
  const PyValue* get(const std::string& key) const {
    for (size_t k = 0; k < keys.size(); ++k)
      if (keys[k].kind == Kind::Str && keys[k].s == key) return &items[k];
    return nullptr;
  }
  void set(PyValue key, PyValue value) {
    for (size_t k = 0; k < keys.size(); ++k)
      if (keys[k].kind == key.kind && keys[k].s == key.s && keys[k].i == key.i) {
        items[k] = std::move(value);
        return;
      }
    keys.push_back(std::move(key));
    items.push_back(std::move(value));
  }
};

const char* py_kind_name(PyValue::Kind kind);  // "Tensor", "int", "tuple", ...

}  // namespace pt2web
