// The Embind registrations: the only names JavaScript sees from the module.
// npm/src wraps them (result objects -> thrown Errors, raw tensors -> Tensor).
#include <emscripten/bind.h>

#include "program_binding.h"

EMSCRIPTEN_BINDINGS(pt2web) {
  using pt2web::js::ProgramBinding;
  emscripten::class_<ProgramBinding>("Program")
      .constructor<>()
      .function("load", &ProgramBinding::load)
      .function("describe", &ProgramBinding::describe)
      .function("run", &ProgramBinding::run)
      .function("runProfiled", &ProgramBinding::run_profiled)
      .function("memory", &ProgramBinding::memory)
      .function("exampleInputs", &ProgramBinding::example_inputs)
      .function("randomInputs", &ProgramBinding::random_inputs)
      .function("stateDict", &ProgramBinding::state_dict)
      .function("buffers", &ProgramBinding::buffers)
      .function("resetState", &ProgramBinding::reset_state)
      .function("setRandomSeed", &ProgramBinding::set_random_seed)
      .function("toString", &ProgramBinding::printed)
      .function("setThreads", &ProgramBinding::set_threads)
      .function("loadDecomposed", &ProgramBinding::load_decomposed)
      .function("save", &ProgramBinding::save);
  emscripten::function("inspectArchive", &pt2web::js::inspect_archive);
  emscripten::function("heapStats", &pt2web::js::heap_stats);
  emscripten::function("threadsSupported", &pt2web::js::threads_supported);
}
