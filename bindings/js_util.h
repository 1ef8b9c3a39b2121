// Small helpers for reading JS values from C++ without surprises.
//
// Embind's val::as<int64_t>() needs BigInt support (-sWASM_BIGINT), and a
// failed conversion throws a JS exception that C++ cannot catch, so lengths
// and type checks go through these instead.
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <string>

namespace pt2web::js {

// v.length of an array or typed array (as a JS number, exact below 2^53).
inline size_t js_length(const emscripten::val& v) {
  return static_cast<size_t>(v["length"].as<double>());
}

// typeof v: "object", "number", "bigint", "string", "boolean", "undefined", "function", ...
inline std::string type_of(const emscripten::val& v) { return v.typeOf().as<std::string>(); }

}  // namespace pt2web::js
