// ProgramBinding: the object behind JS `Program`: one loaded Session plus
// the JSON description of its program. Every method returns a result object
// (js_result.h); none throws into JavaScript.
//
// Ownership: the program bytes are copied out of the JS heap once, into a
// vector shared by the Session's tensors (weights borrow it). JS must call
// delete() (npm's Program.dispose()) to free it.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>

#include "runtime/session.h"

namespace pt2web::js {

class ProgramBinding {
 public:
  // Loads, verifies and prepares the program; label names it in errors.
  // Result value: undefined. Fails with UNSUPPORTED listing missing operators.
  emscripten::val load(const emscripten::val& bytes, const std::string& label);
  // Result value: the describe_program() JSON text.
  emscripten::val describe() const;
  // args: a JS array; kwargs: a plain object. Result value: the outputs.
  emscripten::val run(const emscripten::val& args, const emscripten::val& kwargs);
  // Like run(), timing every node. Result value: {outputs, profile}, where
  // profile lists {target, calls, ms} per operator, slowest first (a fused
  // node counts under "conv2d.default + batch_norm + hardtanh_").
  emscripten::val run_profiled(const emscripten::val& args, const emscripten::val& kwargs);
  // Result value: {plannedBytes, unplannedBytes} of the last run's activation
  // memory (the arena, and what the same buffers take without reuse); zeros
  // before the first run.
  emscripten::val memory() const;
  // Result value: an array of [name, tensor] pairs in state-dict order.
  emscripten::val state_dict() const;
  emscripten::val reset_state();
  // Result value: the archive's example inputs as [args, kwargs] (what
  // torch.export was given), or null when the archive holds none.
  emscripten::val example_inputs() const;
  // Result value: print_program() text.
  emscripten::val printed() const;
  // Threads this program's runs may use (the caller's thread included);
  // more than 1 takes effect only in the -pthread build. Result value: the
  // count runs will use. Fails with BAD_INPUT for a count below 1.
  emscripten::val set_threads(int threads);

 private:
  const Session& session() const;
  emscripten::val run_session(const emscripten::val& args, const emscripten::val& kwargs);
  Session& session();

  std::unique_ptr<Session> session_;
  std::string description_;
  bool mutates_inputs_ = false;
  int threads_ = 1;
};

// Whether this build of the module can run threads (the -pthread build).
bool threads_supported();

// Loads and verifies a program and describes it without preparing it to run,
// so programs with unsupported operators can still be inspected.
// Result value: the describe_program() JSON text.
emscripten::val inspect_archive(const emscripten::val& bytes, const std::string& label);

// The module's heap: {inUse: bytes malloc has handed out and not taken back,
// heapSize: the wasm memory's size}. For leak tests and memory reports.
emscripten::val heap_stats();

}  // namespace pt2web::js
