#include "util/error.h"

namespace pt2web {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::BadFile: return "BAD_FILE";
    case ErrorCode::BadInput: return "BAD_INPUT";
    case ErrorCode::Unsupported: return "UNSUPPORTED";
    case ErrorCode::BadProgram: return "BAD_PROGRAM";
    case ErrorCode::OutOfMemory: return "OUT_OF_MEMORY";
    case ErrorCode::Internal: return "INTERNAL";
  }
  return "INTERNAL";
}

}  // namespace pt2web
