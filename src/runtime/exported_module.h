// ExportedModule: what ExportedProgram.module() gives in torch — a stateful
// callable with the lifted parameters, buffers and constants inlined (a
// Session underneath: buffers persist across calls, user-input mutations are
// written back), whose train() and eval() fail as torch's do ("Calling
// train() is not supported yet."). call_exported_program() is the error
// torch raises when the ExportedProgram object itself is called.
//
// Ownership: the module owns a copy of the program and its state.
// Errors: construction as Session's; calls as Session::run; train()/eval()
// throw Error(Unsupported); call_exported_program throws Error(BadInput).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/session.h"

namespace pt2web {

class ExportedModule {
 public:
  explicit ExportedModule(const ExportedProgram& program);

  PyValue operator()(const PyValue& args, const PyValue& kwargs) { return session_->run(args, kwargs); }
  // Parameters and current buffers, in state-dict order.
  std::vector<std::pair<std::string, Tensor>> state_dict() const { return session_->state_dict(); }
  [[noreturn]] void train(bool mode = true) const;
  [[noreturn]] void eval() const;
  Session& session() { return *session_; }

 private:
  std::unique_ptr<Session> session_;
};

[[noreturn]] void call_exported_program(const ExportedProgram& program);

}  // namespace pt2web
