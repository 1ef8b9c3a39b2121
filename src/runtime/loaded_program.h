// LoadedProgram: the one way into pt2web for every caller (the JavaScript
// binding, the native driver, the tests). It owns the whole sequence from
// .pt2 bytes to results: load the archive, verify the program, prepare it
// (a Session: kernels resolved, state copied), and then run it with this
// program's thread count, time it per operator, report its activation memory
// and describe it.
//
// Threads: each program has its own count (1 until set_threads), handed to
// the kernels' pool for the duration of each run (parallel::ThreadBudget on
// the calling thread); nothing is set process-wide. With more than one
// allowed, the program's first runs time both that count and one thread, and
// later runs use the faster (runtime/thread_choice.h). Results are
// bit-identical for every count.
//
// Ownership: owns the program, its archive bytes or source (weights borrow
// them, or are deferred in the source) and its session. Runs are sequential: one LoadedProgram must not run on two
// threads at once; two LoadedPrograms may.
// Errors: the constructor throws Error(BadFile) for an unreadable archive,
// Error(BadProgram) for a program that fails verification and
// Error(Unsupported) listing every operator without a kernel. run() throws
// Error(BadInput) for inputs the program does not accept (nothing computed,
// state unchanged) and kernel errors naming the node; the program stays
// usable after any of them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/pt2_loader.h"
#include "passes/run_decompositions.h"
#include "runtime/describe.h"
#include "runtime/operator_profile.h"
#include "runtime/session.h"
#include "runtime/thread_choice.h"

namespace pt2web {

struct MemoryStats {
  size_t planned_bytes = 0;    // the last run's activation arena
  size_t unplanned_bytes = 0;  // what the same buffers take without reuse
};

struct ProfiledRun {
  PyValue outputs;
  std::vector<OperatorTime> profile;  // per operator target, slowest first
};

class LoadedProgram {
 public:
  // Loads, verifies and prepares; `label` names the program in errors;
  // `model` chooses a model of a PT2 archive that holds several (io/pt2_loader.h).
  LoadedProgram(Bytes bytes, const std::string& label, const std::string& model = "");
  // The same over a source read on demand (io/byte_source.h); weights no
  // node reads stay in the source until state_dict() or save() asks.
  // `progress` is told as the weights are copied out of the source
  // (io/pt2_loader.h, WeightProgress).
  LoadedProgram(std::shared_ptr<const ByteSource> source, const std::string& label, const std::string& model = "",
                const WeightProgress& progress = {});
  // A program made in memory (by run_decompositions, a pass, or a test):
  // verified and prepared as a loaded one. Throws as verify_program and
  // Session's constructor do.
  explicit LoadedProgram(ExportedProgram program);
  LoadedProgram(const LoadedProgram&) = delete;
  LoadedProgram& operator=(const LoadedProgram&) = delete;

  const ExportedProgram& program() const { return session_->program(); }

  // Threads this program's runs may use, the caller's included (>= 1).
  int threads() const { return threads_.allowed(); }
  // Sets that count (and starts a new comparison with one thread); builds
  // without threads keep 1. Returns the count runs may use. Throws
  // Error(BadInput) for a count below 1.
  int set_threads(int threads);
  // Which count runs use, as the comparison with one thread stands.
  const ThreadChoice& thread_choice() const { return threads_; }

  // Runs like ep.module()(*args, **kwargs). `sequences`: see bind_user_inputs.
  PyValue run(const PyValue& args, const PyValue& kwargs,
              TreeSpec::SequenceMatch sequences = TreeSpec::SequenceMatch::Exact);
  // The same, timing every node.
  ProfiledRun run_profiled(const PyValue& args, const PyValue& kwargs,
                           TreeSpec::SequenceMatch sequences = TreeSpec::SequenceMatch::Exact);

  // Whether a run may write into the caller's input tensors (runtime/input_mutation.h).
  bool may_mutate_inputs() const { return mutates_inputs_; }

  // Activation memory of the last run; zeros before the first.
  MemoryStats memory() const;

  // describe_program() of this program, with its archive's layout.
  nlohmann::json describe(DescribeOptions options = {}) const;
  // The program printed in the spirit of Python's print(ep).
  std::string printed() const;

  // Current parameters and buffers, in state-dict order. Entries no node
  // reads that were left in the source are read from it now (copies).
  std::vector<std::pair<std::string, Tensor>> state_dict() const;
  // Current values of every buffer by name, persistent or not (what torch's
  // ep.module().named_buffers() holds; state_dict() leaves non-persistent
  // buffers out, as torch's does). Views of the program's own state.
  const std::map<std::string, Tensor>& buffers() const { return session_->buffers(); }
  // Restores every buffer to its value at load time.
  void reset_state() { session_->reset_state(); }
  // Restarts the stream of the random operators (rand, randn, randint,
  // bernoulli, uniform_, normal_, ...) at `seed`; a program starts at seed 0.
  // Deterministic per seed, not bit-equal to torch's generator.
  void set_random_seed(uint64_t seed) { session_->set_random_seed(seed); }

  // The archive's example inputs as (args, kwargs), or nullptr when it has
  // none. Throws Error(Unsupported) with the reason when the archive has
  // them but they cannot be read (a pickled user class).
  const PyValue* example_inputs() const;
  // Random inputs of valid shapes as (args, kwargs) (runtime/random_inputs.h).
  PyValue random_inputs(uint32_t seed) const;

  // ExportedProgram.run_decompositions() of this program
  // (passes/run_decompositions.h), verified and prepared as a new program
  // with its state as loaded. Throws as run_decompositions does
  // (Error(BadInput) for an operator that cannot be preserved) and as the
  // in-memory constructor does.
  std::unique_ptr<LoadedProgram> decomposed(const DecompositionOptions& options = {}) const;
  // The program as the bytes of a .pt2 file (io/pt2_writer.h), its state as
  // loaded (not as runs have changed it). Throws Error(Unsupported) for
  // state the writer cannot store.
  std::vector<uint8_t> save() const;

 private:
  ArchiveLayout layout_;
  UnreadState unread_;  // entries left in the source (loaded from one that copies)
  std::unique_ptr<Session> session_;
  bool mutates_inputs_ = false;
  ThreadChoice threads_;
};

// Loads and verifies a program and describes it without preparing it, so
// programs with unsupported operators can be inspected too. Throws like the
// LoadedProgram constructor, except for Error(Unsupported).
nlohmann::json inspect_archive(Bytes bytes, const std::string& label, DescribeOptions options = {},
                               const std::string& model = "");
nlohmann::json inspect_archive(std::shared_ptr<const ByteSource> source, const std::string& label,
                               DescribeOptions options = {}, const std::string& model = "");

}  // namespace pt2web
