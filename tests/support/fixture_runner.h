// Runs a fixture folder's cases in order on one loaded program, as the
// fixtures' README prescribes, and reports one line per case. Shared by the
// Catch2 fixture test and the native development driver; both enter through
// LoadedProgram, like the JavaScript binding.
#pragma once

#include <string>
#include <vector>

#include "program/py_value.h"

namespace pt2web {
class LoadedProgram;
}

namespace pt2web::testing {

struct CaseResult {
  std::string name;
  bool passed = false;
  std::string detail;  // max error, the rejection message, or what went wrong
  PyValue output;      // what the program returned (None when it threw)
};

struct FixtureResult {
  bool loaded = false;
  std::string load_error;
  std::vector<CaseResult> cases;
  int passed() const;
  int failed() const;
};

// `threads`: the program's thread count (LoadedProgram::set_threads).
FixtureResult run_fixture(const std::string& dir, bool core, int threads = 1);

// Runs a cases file in order on an already loaded program (one made in
// memory by a transformation, for example).
std::vector<CaseResult> run_cases(LoadedProgram& program, const std::string& cases_path);

}  // namespace pt2web::testing
