// PassManager: runs named passes over an ExportedProgram in order and
// verifies the program after each (like torch's _transform_do_not_use with a
// PassManager). A pass takes the program and returns the new one.
//
// Ownership: passes are values (std::function). Errors: a pass's own error
// propagates; a program the verifier rejects after a pass becomes
// Error(Internal) naming the pass.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "program/exported_program.h"

namespace pt2web {

using ProgramPass = std::function<ExportedProgram(const ExportedProgram&)>;

class PassManager {
 public:
  PassManager& add(std::string name, ProgramPass pass);
  ExportedProgram run(const ExportedProgram& program) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, ProgramPass>> passes_;
};

}  // namespace pt2web
