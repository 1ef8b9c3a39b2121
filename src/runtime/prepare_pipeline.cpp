#include "runtime/prepare_pipeline.h"

#include "passes/lower_vmap.h"
#include "runtime/buffer_writes.h"
#include "util/stage_times.h"

namespace pt2web {

std::set<std::string> fixed_inputs(const ExportedProgram& program) {
  std::set<std::string> names;
  for (const auto& spec : program.signature.input_specs)
    if (spec.kind == InputKind::Parameter || spec.kind == InputKind::ConstantTensor) names.insert(spec.arg.name);
  return names;
}

void verify_and_lower(ExportedProgram& program, StepLog* log) {
  {
    LoggedStepTimer step(log, "verify");
    verify_program(program);
  }
  bool lowered = false;
  {
    LoggedStepTimer step(log, "lower vmap regions");
    lowered = lower_vmap_regions(program);
    if (lowered) verify_program(program);
  }
  if (lowered && log) log->add("lower vmap regions", 0).detail = "changed the program";
}

std::unique_ptr<PreparedProgram> prepare_program(ExportedProgram program) {
  StageTimer timer("prepare (the whole pipeline)");
  auto prepared = std::make_unique<PreparedProgram>();
  StepLog& log = prepared->steps;
  ExportedProgram& loaded = prepared->loaded;
  loaded = std::move(program);
  verify_and_lower(loaded, &log);
  {
    LoggedStepTimer step(&log, "find written buffers");
    prepared->written_in_place = buffers_written_in_place(loaded);
    prepared->written = with_buffer_mutations(loaded, prepared->written_in_place);
  }
  prepared->folded = fold_at_load(loaded, {}, prepared->written, &log);
  const ExportedProgram& runs = prepared->runs();
  prepared->plans = std::make_unique<PlanSet>(runs.graph, fixed_inputs(runs), &log);
  return prepared;
}

}  // namespace pt2web
