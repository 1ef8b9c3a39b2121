// Python values across the JS boundary (the calling convention of Program.run).
//
// JS -> Python (inputs):
//   null / undefined -> None;  boolean -> bool;  string -> str
//   number -> int when it is an integer, float otherwise;  BigInt -> int
//   {dtype, shape, data} -> Tensor (js_tensor.h)
//   Array -> tuple or list, whichever the program's in_spec expects there
//   plain object -> dict (keys in JS property order)
//   tagged single-key objects say exactly what is meant:
//     {float: 3} a float even if integral ("inf", "-inf", "nan" accepted),
//     {int: 3 | 3n | "9007199254740993"}, {tuple: [...]}, {list: [...]},
//     {dict: [[key, value], ...]} (for non-string keys or a key that looks like a tag).
//   A tagged tuple or list must match the spec exactly, as in torch.
// Python -> JS (outputs): the same mapping back, tuples and lists as Arrays,
// dicts as plain objects, ints beyond 2^53 as BigInt, tensors copied out.
//
// Ownership: InputConverter keeps the tensors it made, with their source typed
// arrays, so write_back() can copy mutated inputs into the caller's arrays.
// Errors: Error(BadInput) naming the input path ("*args[0]['a']").
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "program/py_value.h"
#include "program/tree_spec.h"

namespace pt2web::js {

class InputConverter {
 public:
  // in_spec: the program's root (args, kwargs) spec, used to pick tuple or
  // list for plain arrays and to check tagged sequences.
  explicit InputConverter(const TreeSpec& in_spec) : in_spec_(in_spec) {}

  PyValue args(const emscripten::val& js_args);      // a JS array -> tuple
  PyValue kwargs(const emscripten::val& js_kwargs);  // a plain object (or undefined) -> dict

  // Copies every input tensor's (possibly mutated) elements back into the
  // typed array it came from.
  void write_back() const;

 private:
  struct Source {
    Tensor tensor;
    emscripten::val data;
  };

  PyValue convert(const emscripten::val& v, const TreeSpec* spec, const std::string& path);
  PyValue sequence(const emscripten::val& items, PyValue::Kind kind, const TreeSpec* spec,
                   const std::string& path);
  PyValue dict_from_object(const emscripten::val& object, const TreeSpec* spec, const std::string& path);
  PyValue dict_from_pairs(const emscripten::val& pairs, const TreeSpec* spec, const std::string& path);
  const TreeSpec* root_child(size_t index) const;

  const TreeSpec& in_spec_;
  std::vector<Source> sources_;
};

// Converts an output value to JS (tensors copied into fresh typed arrays).
emscripten::val to_js(const PyValue& value);

}  // namespace pt2web::js
