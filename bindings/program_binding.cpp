#include "program_binding.h"

#include <malloc.h>

#include <cmath>

#include "js_byte_source.h"
#include "js_result.h"
#include "js_tensor.h"
#include "js_util.h"
#include "js_values.h"
#include "kernels/parallel/thread_pool.h"
#include "util/error.h"

namespace pt2web::js {

using emscripten::val;

namespace {

// Invalid UTF-8 (it could only come from a malformed file) is replaced rather than failing.
val json_text(const nlohmann::json& description) {
  return val(description.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

val profile_to_js(const std::vector<OperatorTime>& profile) {
  val out = val::array();
  for (size_t i = 0; i < profile.size(); ++i) {
    val row = val::object();
    row.set("target", profile[i].target);
    row.set("calls", profile[i].calls);
    row.set("ms", profile[i].ms);
    out.set(i, row);
  }
  return out;
}

}  // namespace

const LoadedProgram& ProgramBinding::program() const {
  if (!program_) fail(ErrorCode::BadInput, "the program is not loaded (or was disposed)");
  return *program_;
}

LoadedProgram& ProgramBinding::program() {
  return const_cast<LoadedProgram&>(static_cast<const ProgramBinding*>(this)->program());
}

val ProgramBinding::load(const val& bytes, const std::string& label, const std::string& model,
                         const val& on_weights) {
  return guarded([&] {
    WeightProgress progress;
    if (on_weights.typeOf().as<std::string>() == "function")
      progress = [&on_weights](uint64_t done, uint64_t total) {
        on_weights(static_cast<double>(done), static_cast<double>(total));
      };
    program_ = std::make_unique<LoadedProgram>(js_byte_source(bytes), label, model, progress);
    return val::undefined();
  });
}

val ProgramBinding::describe(bool printed) const {
  return guarded([&] { return json_text(program().describe({printed})); });
}

val ProgramBinding::run_converted(const val& args, const val& kwargs, bool profiled) {
  LoadedProgram& p = program();
  InputConverter inputs(p.program().call_signature().in_spec);
  PyValue py_args = inputs.args(args);
  PyValue py_kwargs = inputs.kwargs(kwargs);
  ProfiledRun result;
  if (profiled) result = p.run_profiled(py_args, py_kwargs);
  else result.outputs = p.run(py_args, py_kwargs);
  if (p.may_mutate_inputs()) inputs.write_back();
  if (!profiled) return to_js(result.outputs);
  val out = val::object();
  out.set("outputs", to_js(result.outputs));
  out.set("profile", profile_to_js(result.profile));
  return out;
}

val ProgramBinding::run(const val& args, const val& kwargs) {
  return guarded([&] { return run_converted(args, kwargs, false); });
}

val ProgramBinding::run_profiled(const val& args, const val& kwargs) {
  return guarded([&] { return run_converted(args, kwargs, true); });
}

val ProgramBinding::set_threads(int threads) {
  return guarded([&] { return val(program().set_threads(threads)); });
}

val ProgramBinding::load_decomposed(const ProgramBinding& source, const val& preserve) {
  return guarded([&] {
    if (!preserve.isArray()) fail(ErrorCode::BadInput, "preserve must be an array of operator names");
    DecompositionOptions options;
    for (size_t i = 0, n = js_length(preserve); i < n; ++i) {
      val name = preserve[i];
      if (!name.isString()) fail(ErrorCode::BadInput, "preserve[", i, "] must be an operator name (a string)");
      options.preserve.push_back(name.as<std::string>());
    }
    program_ = source.program().decomposed(options);
    return val::undefined();
  });
}

val ProgramBinding::save() const {
  return guarded([&] { return bytes_to_js(program().save()); });
}

bool threads_supported() { return parallel::threads_supported(); }

val ProgramBinding::memory() const {
  return guarded([&] {
    const MemoryStats stats = program().memory();
    val result = val::object();
    result.set("plannedBytes", static_cast<double>(stats.planned_bytes));
    result.set("unplannedBytes", static_cast<double>(stats.unplanned_bytes));
    return result;
  });
}

namespace {

// [[name, tensor], ...] for JavaScript.
template <typename Entries>
val named_tensors(const Entries& entries) {
  val out = val::array();
  size_t i = 0;
  for (const auto& [name, tensor] : entries) {
    val pair = val::array();
    pair.set(0, name);
    pair.set(1, tensor_to_js(tensor));
    out.set(i++, pair);
  }
  return out;
}

}  // namespace

val ProgramBinding::state_dict() const {
  return guarded([&] { return named_tensors(program().state_dict()); });
}

val ProgramBinding::buffers() const {
  return guarded([&] { return named_tensors(program().buffers()); });
}

val ProgramBinding::reset_state() {
  return guarded([&] {
    program().reset_state();
    return val::undefined();
  });
}

val ProgramBinding::set_random_seed(double seed) {
  return guarded([&] {
    if (!(seed >= 0 && seed <= 9007199254740991.0) || std::floor(seed) != seed)
      fail(ErrorCode::BadInput, "seed must be a whole number from 0 to 2^53-1, got ", seed);
    program().set_random_seed(static_cast<uint64_t>(seed));
    return val::undefined();
  });
}

val ProgramBinding::example_inputs() const {
  return guarded([&] {
    const PyValue* example = program().example_inputs();
    return example ? to_js(*example) : val::null();
  });
}

val ProgramBinding::random_inputs(double seed) const {
  return guarded([&] {
    if (!(seed >= 0 && seed <= 4294967295.0) || std::floor(seed) != seed)
      fail(ErrorCode::BadInput, "seed must be a whole number from 0 to 2^32-1, got ", seed);
    return to_js(program().random_inputs(static_cast<uint32_t>(seed)));
  });
}

val ProgramBinding::printed() const {
  return guarded([&] { return val(program().printed()); });
}

val inspect_archive(const val& bytes, const std::string& label, const std::string& model) {
  return guarded([&] { return json_text(pt2web::inspect_archive(js_byte_source(bytes), label, {true}, model)); });
}

val heap_stats() {
  struct mallinfo info = mallinfo();
  val result = val::object();
  result.set("inUse", static_cast<double>(info.uordblks));
  result.set("heapSize", val::module_property("HEAP8")["length"]);
  return result;
}

}  // namespace pt2web::js
