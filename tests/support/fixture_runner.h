// Runs a fixture folder's cases in order on one loaded program, as the
// fixtures' README prescribes, and reports one line per case. Shared by the
// Catch2 fixture test and the native development driver.
#pragma once

#include <string>
#include <vector>

namespace pt2web {
class Session;
}

namespace pt2web::testing {

struct CaseResult {
  std::string name;
  bool passed = false;
  std::string detail;  // max error, the rejection message, or what went wrong
};

struct FixtureResult {
  bool loaded = false;
  std::string load_error;
  std::vector<CaseResult> cases;
  int passed() const;
  int failed() const;
};

FixtureResult run_fixture(const std::string& dir, bool core);

// Runs a cases file in order on an already prepared session.
std::vector<CaseResult> run_cases(Session& session, const std::string& cases_path);

}  // namespace pt2web::testing
