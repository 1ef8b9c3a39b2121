// Load-time folding: the program a session runs is the loaded program after
// the load-time graph passes, run by a PassManager (passes/pass_manager.h):
// its inference batch norms folded into the convolutions before them
// (passes/fold_batch_norm.h), so the scale and shift are computed once at
// load instead of on every call, and then the weights of narrow 1x1
// convolutions packed (runtime/load_time_packing.h). Only state that stays
// constant is folded or packed: buffers the program may write
// (runtime/buffer_writes.h) are left alone.
// Buffers the program never writes can still be replaced through
// Session::set_buffer or put back by reset_state; the session then calls
// refresh_folds to recompute the folded constants from the current values.
//
// The loaded program is kept unchanged next to it: program(), state_dict(),
// save() and describe() show what torch wrote, never the folded constants.
//
// Ownership: returns new programs sharing the loaded state's tensors.
// Errors: none of its own (what cannot be folded runs as loaded).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "program/exported_program.h"
#include "util/step_log.h"

namespace pt2web {

struct LoadTimeFolding {
  // The loaded program with its folds and packed weights; empty when there
  // was nothing to fold or pack (no copy is made then).
  std::optional<ExportedProgram> prepared;
  std::set<std::string> folded_buffers;  // buffers whose replacement calls for refresh_folds

  // What the executor runs: the prepared program, or else `loaded` itself.
  const ExportedProgram& program(const ExportedProgram& loaded) const { return prepared ? *prepared : loaded; }
};

// `buffers`: each buffer's current value by target; `written`: the buffer
// targets the program may write; `log` (may be null) gets the passes' steps.
LoadTimeFolding fold_at_load(const ExportedProgram& loaded, const std::map<std::string, Tensor>& buffers,
                             const std::set<std::string>& written, StepLog* log = nullptr);

// Recomputes the folded and packed constants of `folded` (made by
// fold_at_load from `loaded`) from the buffers' current values, in place:
// the graph, and so any plan built on it, stays valid.
void refresh_folds(const ExportedProgram& loaded, const std::map<std::string, Tensor>& buffers,
                   const std::set<std::string>& written, LoadTimeFolding& folded);

}  // namespace pt2web
