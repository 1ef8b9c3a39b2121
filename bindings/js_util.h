// Small helpers for reading JS values from C++ without surprises.
//
// Embind's val::as<int64_t>() needs BigInt support (-sWASM_BIGINT), and a
// failed conversion throws a JS exception that C++ cannot catch, so lengths
// and type checks go through these instead.
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace pt2web::js {

// v.length of an array or typed array (as a JS number, exact below 2^53).
inline size_t js_length(const emscripten::val& v) {
  return static_cast<size_t>(v["length"].as<double>());
}

// typeof v: "object", "number", "bigint", "string", "boolean", "undefined", "function", ...
inline std::string type_of(const emscripten::val& v) { return v.typeOf().as<std::string>(); }

// A Uint8Array over exactly the bytes of an ArrayBuffer view.
inline emscripten::val byte_view(const emscripten::val& view) {
  return emscripten::val::global("Uint8Array").new_(view["buffer"], view["byteOffset"], view["byteLength"]);
}

// Copies n bytes from a JS byte view into wasm memory at dst. The heap view
// is made after every allocation, right before the copy.
inline void copy_from_js(const emscripten::val& bytes, void* dst, size_t n) {
  if (n == 0) return;
  emscripten::val heap(emscripten::typed_memory_view(n, static_cast<uint8_t*>(dst)));
  heap.call<void>("set", bytes);
}

}  // namespace pt2web::js
