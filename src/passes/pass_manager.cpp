#include "passes/pass_manager.h"

#include "util/error.h"

namespace pt2web {

PassManager& PassManager::add(std::string name, ProgramPass pass) {
  passes_.emplace_back(std::move(name), std::move(pass));
  return *this;
}

bool PassManager::run(ExportedProgram& program, StepLog* log) const {
  bool any = false;
  for (const auto& [name, pass] : passes_) {
    bool changed = false;
    {
      LoggedStepTimer step(log, name);
      changed = pass(program);
      if (changed) {
        try {
          verify_program(program);
        } catch (const Error& e) {
          fail(ErrorCode::Internal, "pass '", name, "' produced an invalid program: ", e.what());
        }
      }
    }
    if (changed && log) log->add(name, 0).detail = "changed the program";
    any = any || changed;
  }
  return any;
}

std::vector<std::string> PassManager::names() const {
  std::vector<std::string> out;
  for (const auto& p : passes_) out.push_back(p.first);
  return out;
}

}  // namespace pt2web
