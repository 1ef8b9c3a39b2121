// Runs a fixture folder's cases in order on one loaded program, as the
// fixtures' README prescribes, and reports one line per case. Shared by the
// Catch2 fixture test and the native development driver; both enter through
// LoadedProgram, like the JavaScript binding.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cases.h"
#include "program/py_value.h"

namespace pt2web {
class LoadedProgram;
}

namespace pt2web::testing {

struct CaseResult {
  std::string name;
  bool passed = false;
  // Why it failed: "" when it passed, an ErrorCode name when pt2web threw
  // (or "EXCEPTION" for anything else), "MISMATCH" when the values differ,
  // "NO_ERROR" when torch rejected the input and pt2web ran it.
  std::string code;
  std::string detail;  // max error, the rejection message, or what went wrong
  PyValue output;      // what the program returned (None when it threw)
};

struct FixtureResult {
  bool loaded = false;
  std::string load_error_code;  // an ErrorCode name, or "EXCEPTION"
  std::string load_error;
  std::vector<CaseResult> cases;
  int passed() const;
  int failed() const;
};

// Compares a run's result with the case's expected value: "" when they match,
// else the first mismatch; *max_error receives the largest difference seen.
// The default is compare(got, c.expected, c.rtol, c.atol, max_error).
using OutputComparer =
    std::function<std::string(const LoadedProgram& program, const Case& c, const PyValue& got, double* max_error)>;

// `threads`: the program's thread count (LoadedProgram::set_threads).
FixtureResult run_fixture(const std::string& dir, bool core, int threads = 1, const OutputComparer& comparer = {});

// Runs a cases file in order on an already loaded program (one made in
// memory by a transformation, for example).
std::vector<CaseResult> run_cases(LoadedProgram& program, const std::string& cases_path,
                                  const OutputComparer& comparer = {});

}  // namespace pt2web::testing
