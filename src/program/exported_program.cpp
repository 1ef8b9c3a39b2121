#include "program/exported_program.h"

#include "util/error.h"

namespace pt2web {

const ModuleCallSignature& ExportedProgram::call_signature() const {
  for (const auto& entry : module_call_graph)
    if (entry.fqn.empty() && entry.signature) return *entry.signature;
  fail(ErrorCode::BadProgram, "the program has no root module call signature (module_call_graph[''])");
}

std::string SymInt::to_string() const {
  return is_symbolic ? expr->to_string() : std::to_string(value);
}

}  // namespace pt2web
