// Tensors and bytes across the JS boundary.
//
// A JS tensor is an object {dtype, shape, data} whose data is the typed array
// of its dtype: Float32Array (float32), Float64Array (float64), BigInt64Array
// (int64), Int32Array, Int16Array, Int8Array, Uint8Array (uint8 and bool, one
// byte per element), Uint16Array (float16 and bfloat16 as raw bits), and
// interleaved real/imaginary Float32Array/Float64Array for complex dtypes.
//
// Ownership: data is always copied, in both directions. Tensors made from JS
// own fresh wasm memory; arrays returned to JS are fresh typed arrays, never
// views of the wasm heap (which moves when memory grows).
// Errors: Error(BadInput) naming `path` for malformed tensors or bytes.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace pt2web::js {

// True when v looks like a tensor: an object with a string dtype and a typed-array data.
bool is_js_tensor(const emscripten::val& v);

// When v looks like a tensor (is_js_tensor), copies it into `out` and
// returns true (throwing as tensor_from_js does when it is malformed);
// false otherwise. Crosses into JavaScript twice for a well-formed tensor.
bool try_tensor_from_js(const emscripten::val& v, const std::string& path, Tensor& out);

// Copies a JS tensor into a new contiguous wasm tensor.
Tensor tensor_from_js(const emscripten::val& v, const std::string& path);

// Copies a tensor into a new JS object {dtype, shape, data}.
emscripten::val tensor_to_js(const Tensor& tensor);

// Copies a contiguous wasm tensor's elements into an existing typed array of the same byte size.
void copy_tensor_into(const Tensor& tensor, const emscripten::val& typed_array);

// Copies bytes into a new Uint8Array.
emscripten::val bytes_to_js(const std::vector<uint8_t>& bytes);

}  // namespace pt2web::js
