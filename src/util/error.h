// Errors of the pt2web core.
//
// The core reports every failure by throwing pt2web::Error. Each error has a
// code that says whose fault it is (the file, the caller's input, a missing
// operator, or pt2web itself) and a message that names what is wrong and
// where. The bindings catch Error at the boundary and turn it into a JS Error
// subclass; nothing in the core aborts the process.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace pt2web {

enum class ErrorCode {
  BadFile,      // the archive or its contents are malformed or unsupported
  BadInput,     // the caller's inputs do not match the program's signature
  Unsupported,  // an operator or feature pt2web does not implement
  BadProgram,   // the program itself is inconsistent (verifier)
  OutOfMemory,  // an allocation failed or could not be addressed (the message names the bytes)
  Internal,     // a bug in pt2web
};

const char* error_code_name(ErrorCode code);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

namespace detail {
inline void append(std::ostringstream&) {}
template <typename T, typename... Rest>
void append(std::ostringstream& out, const T& first, const Rest&... rest) {
  out << first;
  append(out, rest...);
}
}  // namespace detail

// Builds a message from streamable pieces: fail(ErrorCode::BadInput, "got ", n).
template <typename... Parts>
[[noreturn]] void fail(ErrorCode code, const Parts&... parts) {
  std::ostringstream out;
  detail::append(out, parts...);
  throw Error(code, out.str());
}

// Cheap internal invariant: a failure here is a pt2web bug, reported as Internal.
#define PT2WEB_CHECK(cond, ...)                                              \
  do {                                                                       \
    if (!(cond)) ::pt2web::fail(::pt2web::ErrorCode::Internal, __VA_ARGS__); \
  } while (0)

}  // namespace pt2web
