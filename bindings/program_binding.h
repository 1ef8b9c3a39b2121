// ProgramBinding: the object behind JS `Program`. Conversions only: it turns
// JS values into core values, calls the program's one door
// (runtime/loaded_program.h) and turns results back. Every method returns a
// result object (js_result.h); none throws into JavaScript.
//
// Ownership: the program is read from its JS bytes through a JsByteSource
// (js_byte_source.h): only the ranges the loader parses and the weights the
// program reads are copied into wasm memory; the source keeps the JS bytes
// alive for the weights left in them. JS must call delete() (npm's
// Program.dispose()) to free the program.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>

#include "runtime/loaded_program.h"

namespace pt2web::js {

class ProgramBinding {
 public:
  // LoadedProgram's constructor; label names it in errors; on_weights, when
  // a function, is called with (bytes copied, total bytes) as the weights are
  // read into place (it must not throw: the caller catches what it would).
  // Result value: undefined. Fails with UNSUPPORTED listing missing operators.
  emscripten::val load(const emscripten::val& bytes, const std::string& label, const std::string& model,
                       const emscripten::val& on_weights);
  // Result value: the description (runtime/describe.h) as JSON text; with
  // the printed program when `printed` is true.
  emscripten::val describe(bool printed) const;
  // args: a JS array; kwargs: a plain object. Result value: the outputs.
  // Input tensors the program mutates are written back into their arrays.
  emscripten::val run(const emscripten::val& args, const emscripten::val& kwargs);
  // Like run(), timing every node. Result value: {outputs, profile}, where
  // profile lists {target, calls, ms} per operator, slowest first.
  emscripten::val run_profiled(const emscripten::val& args, const emscripten::val& kwargs);
  // Result value: {plannedBytes, unplannedBytes} (LoadedProgram::memory()).
  emscripten::val memory() const;
  // Result value: an array of [name, tensor] pairs in state-dict order.
  emscripten::val state_dict() const;
  emscripten::val buffers() const;
  emscripten::val reset_state();
  // LoadedProgram::set_random_seed: restarts the random operators' stream
  // (rand, randn, dropout in training, ...); seed: a whole number from 0
  // to 2^53-1.
  emscripten::val set_random_seed(double seed);
  // Result value: the archive's example inputs as [args, kwargs] (what
  // torch.export was given), or null when the archive holds none.
  emscripten::val example_inputs() const;
  // Result value: random inputs of valid shapes as [args, kwargs]
  // (runtime/random_inputs.h); seed: a whole number from 0 to 2^32-1.
  emscripten::val random_inputs(double seed) const;
  // Result value: the printed program.
  emscripten::val printed() const;
  // LoadedProgram::set_threads. Result value: the count runs will use.
  emscripten::val set_threads(int threads);
  // Loads run_decompositions() of `source`'s program (LoadedProgram::
  // decomposed) into this binding; preserve: an array of operator names
  // kept as they are ("aten.linear.default" or "aten::linear.default").
  // Result value: undefined. Fails with BAD_INPUT for an operator that
  // cannot be preserved.
  emscripten::val load_decomposed(const ProgramBinding& source, const emscripten::val& preserve);
  // Result value: the program as .pt2 bytes (a Uint8Array; LoadedProgram::save).
  emscripten::val save() const;

 private:
  const LoadedProgram& program() const;
  LoadedProgram& program();
  emscripten::val run_converted(const emscripten::val& args, const emscripten::val& kwargs, bool profiled);

  std::unique_ptr<LoadedProgram> program_;
};

// Whether this build of the module can run threads (the -pthread build).
bool threads_supported();

// inspect_archive (runtime/loaded_program.h), printed program included;
// `model`: which model of a PT2 archive ("" for the default).
// Result value: the description as JSON text.
emscripten::val inspect_archive(const emscripten::val& bytes, const std::string& label, const std::string& model);

// The module's heap: {inUse: bytes malloc has handed out and not taken back,
// heapSize: the wasm memory's size}. For leak tests and memory reports.
emscripten::val heap_stats();

}  // namespace pt2web::js
