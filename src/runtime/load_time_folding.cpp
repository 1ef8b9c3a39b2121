#include "runtime/load_time_folding.h"

#include "passes/fold_batch_norm.h"
#include "passes/pass_manager.h"
#include "runtime/load_time_packing.h"
#include "util/error.h"

namespace pt2web {

namespace {

// The loaded program with each buffer's state replaced by its current value.
ExportedProgram with_buffers(const ExportedProgram& loaded, const std::map<std::string, Tensor>& buffers) {
  ExportedProgram p = loaded;
  for (const auto& spec : p.signature.input_specs) {
    if (spec.kind != InputKind::Buffer) continue;
    auto value = buffers.find(spec.target);
    if (value == buffers.end()) continue;
    if (spec.persistent.value_or(true)) p.state_dict[spec.target] = value->second;
    else p.constants[spec.target].tensor = value->second;
  }
  return p;
}

// Placeholders of the buffers the program may write.
std::set<std::string> written_placeholders_of(const ExportedProgram& loaded, const std::set<std::string>& written) {
  std::set<std::string> names;
  for (const auto& spec : loaded.signature.input_specs)
    if (spec.kind == InputKind::Buffer && written.count(spec.target)) names.insert(spec.arg.name);
  return names;
}

// The program to run: the load-time graph passes (batch norms folded, then
// pointwise weights packed) run through a PassManager on a copy of the loaded
// program; nothing when no pass changed anything (the loaded program runs as
// it is).
std::optional<ExportedProgram> prepared(const ExportedProgram& loaded, const std::map<std::string, Tensor>& buffers,
                                        const std::set<std::string>& written, StepLog* log) {
  const std::set<std::string> changing = written_placeholders_of(loaded, written);
  std::optional<ExportedProgram> p;
  {
    LoggedStepTimer step(log, "copy the program for the graph passes");
    p = buffers.empty() ? loaded : with_buffers(loaded, buffers);
  }
  PassManager passes;
  passes.add("fold batch norms", [&](ExportedProgram& program) { return fold_batch_norm_in_place(program, changing); });
  passes.add("pack pointwise weights",
             [&](ExportedProgram& program) { return pack_pointwise_weights(program, loaded.constants, changing); });
  if (!passes.run(*p, log)) p.reset();
  return p;
}

bool adds_constants(const ExportedProgram& loaded, const ExportedProgram& p) {
  for (const auto& entry : p.constants)
    if (!loaded.constants.count(entry.first)) return true;
  return false;
}

}  // namespace

LoadTimeFolding fold_at_load(const ExportedProgram& loaded, const std::map<std::string, Tensor>& buffers,
                             const std::set<std::string>& written, StepLog* log) {
  LoadTimeFolding result;
  result.prepared = prepared(loaded, buffers, written, log);
  if (!result.prepared || !adds_constants(loaded, *result.prepared)) return result;
  // Any buffer the program does not write may have been folded (a running
  // mean or variance) or packed; replacing one refolds them all (a rare,
  // explicit call).
  for (const auto& spec : loaded.signature.input_specs)
    if (spec.kind == InputKind::Buffer && !written.count(spec.target)) result.folded_buffers.insert(spec.target);
  return result;
}

void refresh_folds(const ExportedProgram& loaded, const std::map<std::string, Tensor>& buffers,
                   const std::set<std::string>& written, LoadTimeFolding& folded) {
  if (folded.folded_buffers.empty()) return;
  std::optional<ExportedProgram> fresh = prepared(loaded, buffers, written, nullptr);
  // The same folds are found (the structure and the shapes are unchanged);
  // only the values of the constants they add differ.
  PT2WEB_CHECK(fresh && folded.prepared, "refolding found nothing to fold");
  for (const auto& [name, value] : fresh->constants)
    if (!loaded.constants.count(name)) folded.prepared->constants[name] = value;
}

}  // namespace pt2web
