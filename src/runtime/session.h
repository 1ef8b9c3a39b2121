// Session: a loaded program ready to run, with its mutable state.
//
// Implements ExportedProgram.module()(*args, **kwargs): binds and checks the
// user inputs (runtime/input_binding.h), prepends parameters, buffers and
// constants in signature order, runs the graph, writes BUFFER_MUTATION outputs
// back into the state and USER_INPUT_MUTATION outputs into the caller's
// tensors, drops tokens and unflattens the user outputs with out_spec.
//
// Creating a session runs the prepare pipeline (runtime/prepare_pipeline.h)
// and nothing else of load-time work: the graph it runs is the pipeline's
// (inference batch norms folded, weights packed, plans built); program() and
// state_dict() still show the program as loaded.
//
// Ownership: the session owns the program. Parameters and constants borrow
// the archive bytes; buffers the program can write (runtime/buffer_writes.h)
// are copied at creation, the others are shared with the loaded values until
// set_buffer() writes them; the loaded values are kept for reset_state().
// Errors: creation throws Error(Unsupported) listing every operator without
// a kernel; run() throws Error(BadInput) for bad inputs (nothing is computed
// and the state is unchanged) and kernel errors with the node named, after
// which the buffers hold what they held before the call (write_journal.h).
#pragma once

#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "program/exported_program.h"
#include "runtime/executor.h"
#include "runtime/input_binding.h"
#include "runtime/memory_plan.h"
#include "runtime/prepare_pipeline.h"
#include "runtime/write_journal.h"

namespace pt2web {

class Session {
 public:
  explicit Session(ExportedProgram program);

  const ExportedProgram& program() const { return program_; }
  // The prepare steps the program went through (runtime/prepare_pipeline.h).
  const StepLog& prepare_steps() const { return prepared_->steps; }

  // args: a Tuple (or List) of positional arguments; kwargs: a Dict.
  // `sequences`: see bind_user_inputs (Exact follows torch).
  PyValue run(const PyValue& args, const PyValue& kwargs,
              TreeSpec::SequenceMatch sequences = TreeSpec::SequenceMatch::Exact);

  // Current parameters and buffers (mutated buffers included), in state-dict order.
  std::vector<std::pair<std::string, Tensor>> state_dict() const;
  // Restores every buffer to the value it had when the program was loaded.
  void reset_state();
  // Overwrites one buffer's current value. Throws Error(BadInput) when the
  // program has no such buffer or the shape differs.
  void set_buffer(const std::string& name, const Tensor& value);
  // Current values of the buffers, by name.
  const std::map<std::string, Tensor>& buffers() const { return buffers_; }

  void set_observer(NodeObserver* observer) { executor_.set_observer(observer); }
  // Restarts the random operators' stream (ops/random_source.h) at `seed`.
  void set_random_seed(uint64_t seed) { executor_.set_random_seed(seed); }

  // Activation memory of the last run: the planned arena's bytes (0 before a
  // plan exists), and what the same buffers take without reuse.
  size_t planned_bytes() const { return last_plan_ ? last_plan_->arena_bytes : 0; }
  size_t unplanned_bytes() const { return last_plan_ ? last_plan_->naive_bytes : 0; }

 private:
  const Tensor* state_tensor(const InputSpec& spec) const;
  PyValue execute(const BoundInputs& bound);

  std::unique_ptr<PreparedProgram> prepared_;  // the program and what the pipeline made of it
  const ExportedProgram& program_;             // prepared_->loaded
  Executor executor_;                          // runs prepared_'s plans
  std::map<std::string, Tensor> buffers_;          // mutable copies, by buffer name
  std::map<std::string, Tensor> initial_buffers_;  // loaded values
  std::set<std::string> owned_buffers_;            // buffers_ entries that are private copies
  WriteJournal journal_;                           // what a failed run must put back (write_journal.h)
  // Per input spec of the program run, resolved once: its state tensor
  // (map entries never move; set_buffer and refresh_folds write them in
  // place), or null for a user input, and the user input's leaf index.
  std::vector<const Tensor*> state_inputs_;
  std::vector<size_t> leaf_of_input_;
  std::map<std::string, size_t> user_input_leaf_;  // placeholder name -> leaf index
  Tensor token_;
  // Memory plans by input-shape signature, and one arena shared by them
  // (runs are sequential, so the largest plan's arena serves them all).
  std::map<std::string, MemoryPlan> plans_;
  std::vector<std::string> plan_order_;  // oldest first, for eviction
  std::shared_ptr<uint8_t> arena_;
  size_t arena_bytes_ = 0;
  const MemoryPlan* last_plan_ = nullptr;
};

}  // namespace pt2web
