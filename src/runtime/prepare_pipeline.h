// The prepare pipeline: everything pt2web does to a loaded program before its
// first run, in one place and in this order, each a named step:
//
//   1. verify                      the program as loaded (program/verifier.h)
//   2. lower vmap regions          torch.vmap regions become batched operators
//                                  (passes/lower_vmap.h), verified again after
//   3. find written buffers        one analysis: which buffers the program may
//                                  write, and which of them in place
//                                  (runtime/buffer_writes.h)
//   4. graph passes                a PassManager on a copy of the program: fold
//                                  batch norms, pack pointwise weights
//                                  (runtime/load_time_folding.h); buffers it
//                                  may write are never folded
//   5. plans                       for the graph and every subgraph: bind nodes
//                                  to kernels, fuse int8 chains, fuse
//                                  convolution epilogues, plan torch layouts,
//                                  liveness (runtime/plan/plan_set.h)
//
// After the pipeline, the session plans memory on the first run of each
// input shape (runtime/memory_plan.h) and LoadedProgram picks threads over
// later runs (runtime/thread_choice.h): both need run-time facts.
//
// The steps taken, with their times and what they changed, are kept
// (PreparedProgram::steps) and describe() lists them.
//
// Ownership: the PreparedProgram owns the loaded program and what was made of
// it; it lives on the heap because its plans point into its graphs.
// Errors: verify's Error(BadProgram), Error(Unsupported) listing every
// operator without a kernel, and the plan binder's Error(BadProgram).
#pragma once

#include <memory>
#include <set>
#include <string>

#include "program/exported_program.h"
#include "runtime/load_time_folding.h"
#include "runtime/plan/plan_set.h"
#include "util/step_log.h"

namespace pt2web {

struct PreparedProgram {
  ExportedProgram loaded;                  // as torch wrote it (program(), save(), describe())
  std::set<std::string> written;           // buffers the program may write
  std::set<std::string> written_in_place;  // those the graph writes while it runs
  LoadTimeFolding folded;                  // the program the plans run (runtime/load_time_folding.h)
  std::unique_ptr<PlanSet> plans;          // plans of the folded program's graphs
  StepLog steps;                           // the steps above, in order

  // The program the plans run: the folded one, or the loaded one unchanged.
  const ExportedProgram& runs() const { return folded.program(loaded); }
};

// Steps 1 and 2 alone, for what describes a program without running it
// (inspect_archive); `log` may be null.
void verify_and_lower(ExportedProgram& program, StepLog* log);

// Runs the steps above on `program`.
std::unique_ptr<PreparedProgram> prepare_program(ExportedProgram program);

// The placeholders of parameters and constant tensors: nothing writes them
// during a run or between runs (buffers can change through set_buffer).
std::set<std::string> fixed_inputs(const ExportedProgram& program);

}  // namespace pt2web
