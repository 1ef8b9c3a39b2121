#include "passes/pass_manager.h"

#include "util/error.h"

namespace pt2web {

PassManager& PassManager::add(std::string name, ProgramPass pass) {
  passes_.emplace_back(std::move(name), std::move(pass));
  return *this;
}

ExportedProgram PassManager::run(const ExportedProgram& program) const {
  ExportedProgram current = program;
  for (const auto& [name, pass] : passes_) {
    current = pass(current);
    try {
      verify_program(current);
    } catch (const Error& e) {
      fail(ErrorCode::Internal, "pass '", name, "' produced an invalid program: ", e.what());
    }
  }
  return current;
}

std::vector<std::string> PassManager::names() const {
  std::vector<std::string> out;
  for (const auto& p : passes_) out.push_back(p.first);
  return out;
}

}  // namespace pt2web
