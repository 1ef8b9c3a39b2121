// The one way C++ results reach JavaScript: every bound function returns a
// plain object, {ok: true, value} on success or {ok: false, code, message}
// on failure, and the JS wrapper (npm/src) turns failures into thrown Errors.
//
// guarded() runs a callable and catches everything it throws (pt2web::Error
// with its code, std::bad_alloc as OUT_OF_MEMORY, other std::exceptions as
// INTERNAL), so no C++ exception ever
// crosses into JavaScript and nothing aborts the wasm instance.
#pragma once

#include <emscripten/val.h>

#include <exception>
#include <new>
#include <string>

#include "util/error.h"

namespace pt2web::js {

inline emscripten::val failure(const std::string& code, const std::string& message) {
  emscripten::val result = emscripten::val::object();
  result.set("ok", false);
  result.set("code", code);
  result.set("message", message);
  return result;
}

template <typename Fn>
emscripten::val guarded(Fn&& fn) {
  try {
    emscripten::val result = emscripten::val::object();
    result.set("ok", true);
    result.set("value", fn());
    return result;
  } catch (const Error& e) {
    return failure(error_code_name(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return failure(error_code_name(ErrorCode::OutOfMemory),
                   "out of memory: the WebAssembly heap cannot grow any further");
  } catch (const std::exception& e) {
    return failure(error_code_name(ErrorCode::Internal), e.what());
  } catch (...) {
    return failure(error_code_name(ErrorCode::Internal), "unknown error inside pt2web");
  }
}

}  // namespace pt2web::js
