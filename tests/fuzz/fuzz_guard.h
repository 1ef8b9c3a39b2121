// What every fuzz target checks besides the sanitizers: hostile bytes may only
// be refused with a pt2web::Error whose code blames the input (BadFile,
// BadInput, Unsupported, BadProgram, OutOfMemory). Any other exception, or an Internal
// error, is a finding: the harness prints it and aborts so libFuzzer saves
// the input. Ownership: none. Errors: aborts, never throws.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "util/error.h"

namespace pt2web::fuzz {

template <typename Body>
void expect_clean_refusal(const char* target, Body body) {
  try {
    body();
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Internal) return;
    std::fprintf(stderr, "%s: Internal error on hostile input: %s\n", target, e.what());
    std::abort();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: exception other than pt2web::Error: %s\n", target, e.what());
    std::abort();
  }
}

}  // namespace pt2web::fuzz
