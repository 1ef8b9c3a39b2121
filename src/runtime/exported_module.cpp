#include "runtime/exported_module.h"

#include "util/error.h"

namespace pt2web {

ExportedModule::ExportedModule(const ExportedProgram& program) : session_(std::make_unique<Session>(program)) {}

void ExportedModule::train(bool) const { fail(ErrorCode::Unsupported, "Calling train() is not supported yet."); }

void ExportedModule::eval() const { fail(ErrorCode::Unsupported, "Calling eval() is not supported yet."); }

void call_exported_program(const ExportedProgram&) {
  fail(ErrorCode::BadInput,
       "Unable to call ExportedProgram directly. You should use `exported_program.module()` instead.");
}

}  // namespace pt2web
