#include "js_tensor.h"

#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "js_util.h"
#include "util/error.h"

// Addresses and Embind handles cross into these functions as doubles
// (js_address, js_handle): a pointer argument would arrive as a signed 32-bit
// number in the wasm32 build (negative past 2 GiB) and as a BigInt in the
// Memory64 one, while a double holds every address either can have, so the
// JavaScript below indexes memory with it as it is.
//
// The per-call path crosses into JavaScript once per tensor and direction
// (each Embind val operation is one crossing, and reading a tensor took
// about twenty). Anything unusual falls back to the checked path below,
// which raises the precise error.

// Reads a tensor-like {dtype, shape, data}: writes its dtype name (NUL
// terminated, at most `cap` bytes) and sizes, returns the rank. -1: not a
// tensor (no string dtype or no typed-array data); -2: a tensor the
// checked path must look at (unusual shape, too many dims).
EM_JS(int, pt2web_probe_tensor, (double handle, double dtype, int cap, double sizes, int max_rank), {
  const v = Emval.toValue(handle);
  if (typeof v !== "object" || v === null || Array.isArray(v)) return -1;
  const data = v.data;
  if (typeof v.dtype !== "string" || !ArrayBuffer.isView(data) || data instanceof DataView) return -1;
  const shape = v.shape;
  if (!Array.isArray(shape) || shape.length > max_rank || v.dtype.length >= cap) return -2;
  const out = new Float64Array(wasmMemory.buffer, sizes, shape.length);
  for (let d = 0; d < shape.length; d++) {
    const x = shape[d];
    if (typeof x !== "number" || !(x >= 0) || Math.floor(x) !== x || x > 9.0e15) return -2;
    out[d] = x;
  }
  stringToUTF8(v.dtype, dtype, cap);
  return shape.length;
});

// Copies the data of tensor-like `handle` (typed array `constructor`, with
// `length` elements) into wasm memory at dst; false when it is another
// array type or length (the checked path then says which).
EM_JS(bool, pt2web_copy_tensor_data, (double handle, double constructor, double length, double dst), {
  const data = Emval.toValue(handle).data;
  const name = data.constructor.name, want = UTF8ToString(constructor);
  if (name !== want && !(name === "Uint8ClampedArray" && want === "Uint8Array")) return false;
  if (data.length !== length) return false;
  if (data.byteLength > 0)
    new Uint8Array(wasmMemory.buffer, dst, data.byteLength).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return true;
});

// A new JS object {dtype, shape, data} holding a copy of `nbytes` bytes at
// src in a fresh typed array of class `constructor`.
EM_JS(double, pt2web_new_js_tensor, (double dtype, double constructor, double src, double nbytes, double sizes, int rank), {
  const bytes = new Uint8Array(wasmMemory.buffer, src, nbytes).slice();
  const data = new globalThis[UTF8ToString(constructor)](bytes.buffer);
  const shape = Array.from(new Float64Array(wasmMemory.buffer, sizes, rank));
  return Emval.toHandle({ dtype: UTF8ToString(dtype), shape: shape, data: data });
});

namespace pt2web::js {

using emscripten::val;

namespace {

// An address or Embind handle as the double the functions above take.
double js_address(const void* p) { return static_cast<double>(reinterpret_cast<uintptr_t>(p)); }
double js_handle(const val& v) { return js_address(v.as_handle()); }
emscripten::EM_VAL from_js_handle(double handle) {
  return reinterpret_cast<emscripten::EM_VAL>(static_cast<uintptr_t>(handle));
}

struct ArrayType {
  const char* constructor;  // the typed array class holding this dtype
  int64_t lanes;            // array elements per tensor element
};

ArrayType array_type(DType dtype) {
  switch (dtype) {
    case DType::Bool:
    case DType::UInt8:
    case DType::Float8E4M3FN:
    case DType::Float8E5M2: return {"Uint8Array", 1};
    case DType::Int8: return {"Int8Array", 1};
    case DType::Int16: return {"Int16Array", 1};
    case DType::Int32: return {"Int32Array", 1};
    case DType::Int64: return {"BigInt64Array", 1};
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16: return {"Uint16Array", 1};
    case DType::UInt32: return {"Uint32Array", 1};
    case DType::UInt64: return {"BigUint64Array", 1};
    case DType::Float32: return {"Float32Array", 1};
    case DType::Float64: return {"Float64Array", 1};
    case DType::Complex64: return {"Float32Array", 2};
    case DType::Complex128: return {"Float64Array", 2};
  }
  return {"Uint8Array", 1};
}

bool is_typed_array(const val& v) {
  return v.typeOf().as<std::string>() == "object" && !v.isNull() &&
         val::global("ArrayBuffer").call<bool>("isView", v) && !v.instanceof(val::global("DataView"));
}

Shape shape_from_js(const val& v, const std::string& path) {
  if (!v.isArray()) fail(ErrorCode::BadInput, "tensor at ", path, ": shape must be an array of sizes");
  Shape shape;
  const size_t rank = js_length(v);
  for (size_t d = 0; d < rank; ++d) {
    val size = v[d];
    double x = size.isNumber() ? size.as<double>() : -1;
    if (!(x >= 0) || std::floor(x) != x || x > 9.0e15)
      fail(ErrorCode::BadInput, "tensor at ", path, ": shape[", d, "] must be a non-negative integer");
    shape.push_back(static_cast<int64_t>(x));
  }
  return shape;
}

}  // namespace

bool is_js_tensor(const val& v) {
  if (v.typeOf().as<std::string>() != "object" || v.isNull() || v.isArray()) return false;
  return v["dtype"].isString() && is_typed_array(v["data"]);
}

bool try_tensor_from_js(const val& v, const std::string& path, Tensor& out) {
  constexpr int kMaxRank = 64;
  char dtype_name_buf[32];
  double sizes[kMaxRank];
  const int rank = ::pt2web_probe_tensor(js_handle(v), js_address(dtype_name_buf), sizeof dtype_name_buf,
                                       js_address(sizes), kMaxRank);
  if (rank == -1) return false;
  DType dtype = DType::Float32;
  bool known = rank >= 0;
  if (known) {
    try {
      dtype = dtype_from_name(dtype_name_buf);
    } catch (const Error&) {
      known = false;
    }
  }
  if (!known) {
    out = tensor_from_js(v, path);
    return true;
  }
  Shape shape(sizes, sizes + rank);
  const ArrayType type = array_type(dtype);
  Tensor tensor = Tensor::empty(dtype, shape);
  if (!pt2web_copy_tensor_data(js_handle(v), js_address(type.constructor),
                               static_cast<double>(tensor.numel() * type.lanes), js_address(tensor.raw_data()))) {
    out = tensor_from_js(v, path);
    return true;
  }
  out = tensor;
  return true;
}

Tensor tensor_from_js(const val& v, const std::string& path) {
  DType dtype;
  try {
    dtype = dtype_from_name(v["dtype"].as<std::string>());
  } catch (const Error& e) {
    fail(ErrorCode::BadInput, "tensor at ", path, ": ", e.what());
  }
  Shape shape = shape_from_js(v["shape"], path);
  val data = v["data"];
  ArrayType type = array_type(dtype);
  std::string got = data["constructor"]["name"].as<std::string>();
  bool clamped_ok = got == "Uint8ClampedArray" && std::string(type.constructor) == "Uint8Array";
  if (got != type.constructor && !clamped_ok)
    fail(ErrorCode::BadInput, "tensor at ", path, ": a ", dtype_name(dtype), " tensor needs its data in a ",
         type.constructor, ", got a ", got);
  const int64_t numel = shape_numel(shape);
  const int64_t length = js_length(data);
  if (length != numel * type.lanes)
    fail(ErrorCode::BadInput, "tensor at ", path, ": shape ", shape_to_string(shape), " needs ",
         numel * type.lanes, " elements but data has ", length);
  Tensor tensor = Tensor::empty(dtype, shape);
  val bytes = byte_view(data);
  copy_from_js(bytes, tensor.raw_data(), tensor.nbytes());
  return tensor;
}

val tensor_to_js(const Tensor& tensor) {
  if (!tensor.defined()) return val::null();
  Tensor dense = tensor.contiguous();
  const ArrayType type = array_type(dense.dtype());
  std::vector<double> sizes(dense.sizes().begin(), dense.sizes().end());
  return val::take_ownership(from_js_handle(pt2web_new_js_tensor(
      js_address(dtype_name(dense.dtype())), js_address(type.constructor), js_address(dense.raw_data()),
      static_cast<double>(dense.nbytes()), js_address(sizes.data()), static_cast<int>(sizes.size()))));
}

void copy_tensor_into(const Tensor& tensor, const val& typed_array) {
  PT2WEB_CHECK(tensor.is_contiguous(), "copy_tensor_into needs a contiguous tensor");
  const size_t n = tensor.nbytes();
  val target = byte_view(typed_array);
  PT2WEB_CHECK(js_length(target) == n, "typed array size does not match the tensor");
  if (n == 0) return;
  val heap(emscripten::typed_memory_view(n, static_cast<const uint8_t*>(tensor.raw_data())));
  target.call<void>("set", heap);
}

val bytes_to_js(const std::vector<uint8_t>& bytes) {
  return val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
}

}  // namespace pt2web::js
