// PassManager: runs named graph passes over an ExportedProgram in place, in
// the order they were added, and verifies the program after each pass that
// changed it (like torch's PassManager with run_checks_after_each_pass).
// A pass rewrites the program and says whether it changed anything.
//
// Ownership: passes are values (std::function); the program is the caller's.
// Errors: a pass's own error propagates; a program the verifier rejects after
// a pass becomes Error(Internal) naming the pass.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "program/exported_program.h"
#include "util/step_log.h"

namespace pt2web {

using ProgramPass = std::function<bool(ExportedProgram&)>;

class PassManager {
 public:
  PassManager& add(std::string name, ProgramPass pass);
  // Runs every pass on `program`; `log` (may be null) gets one step per pass,
  // with detail "changed the program" for those that did. Returns whether any
  // pass changed it.
  bool run(ExportedProgram& program, StepLog* log = nullptr) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, ProgramPass>> passes_;
};

}  // namespace pt2web
