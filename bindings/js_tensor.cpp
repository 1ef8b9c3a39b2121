#include "js_tensor.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "js_util.h"
#include "util/error.h"

namespace pt2web::js {

using emscripten::val;

namespace {

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

// A fresh typed array holding a copy of `dense`'s elements: slice() of a
// typed view on the wasm heap (one call into JavaScript) for the element
// types Embind can view; undefined for the others.
val sliced_copy(const Tensor& dense) {
  const size_t n = static_cast<size_t>(dense.numel());
  auto copy_of = [](auto view) { return val(view).call<val>("slice"); };
  switch (dense.dtype()) {
    case DType::Float32: return copy_of(emscripten::typed_memory_view(n, dense.data<float>()));
    case DType::Float64: return copy_of(emscripten::typed_memory_view(n, dense.data<double>()));
    case DType::Int32: return copy_of(emscripten::typed_memory_view(n, dense.data<int32_t>()));
    case DType::Int16: return copy_of(emscripten::typed_memory_view(n, dense.data<int16_t>()));
    case DType::Int8: return copy_of(emscripten::typed_memory_view(n, dense.data<int8_t>()));
    case DType::UInt32: return copy_of(emscripten::typed_memory_view(n, dense.data<uint32_t>()));
    case DType::UInt8:
    case DType::Bool: return copy_of(emscripten::typed_memory_view(n, static_cast<const uint8_t*>(dense.raw_data())));
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16:
      return copy_of(emscripten::typed_memory_view(n, static_cast<const uint16_t*>(dense.raw_data())));
    default: return val::undefined();
  }
}

val tensor_to_js(const Tensor& tensor) {
  if (!tensor.defined()) return val::null();
  Tensor dense = tensor.contiguous();
  ArrayType type = array_type(dense.dtype());
  val data = dense.numel() > 0 ? sliced_copy(dense) : val::undefined();
  if (data.isUndefined()) {
    data = val::global(type.constructor).new_(static_cast<double>(dense.numel() * type.lanes));
    copy_tensor_into(dense, data);
  }
  val shape = val::array();
  for (size_t d = 0; d < dense.sizes().size(); ++d) shape.set(d, static_cast<double>(dense.sizes()[d]));
  val out = val::object();
  out.set("dtype", std::string(dtype_name(dense.dtype())));
  out.set("shape", shape);
  out.set("data", data);
  return out;
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
