#include "program_binding.h"

#include <malloc.h>

#include <algorithm>
#include <map>

#include "io/pt2_loader.h"
#include "js_result.h"
#include "js_tensor.h"
#include "js_values.h"
#include "kernels/parallel/thread_pool.h"
#include "ops/registry.h"
#include "program/describe.h"
#include "util/error.h"

namespace pt2web::js {

using emscripten::val;

namespace {

std::string description_text(const ExportedProgram& program, const ArchiveLayout& layout) {
  // Replace invalid UTF-8 (it could only come from a malformed file) rather than fail.
  return describe_program(program, &layout).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// An in-place ATen overload: the operator name ends in '_' ("aten::add_.Tensor").
bool is_in_place(const std::string& target) {
  std::string qualified = qualified_op_name(target);  // "aten::add_.Tensor"
  size_t separator = qualified.find("::");
  size_t begin = separator == std::string::npos ? 0 : separator + 2;
  size_t end = qualified.find('.', begin);
  std::string name = qualified.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  return !name.empty() && name.back() == '_';
}

bool graph_mutates_in_place(const Graph& graph) {
  for (const auto& node : graph.nodes) {
    if (is_in_place(node.target)) return true;
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph && in.arg.graph && graph_mutates_in_place(*in.arg.graph))
        return true;
  }
  return false;
}

// Whether running may change the caller's input tensors: functional graphs
// say so with USER_INPUT_MUTATION outputs; TRAINING graphs mutate in place.
bool may_mutate_inputs(const ExportedProgram& program) {
  return !program.signature.user_inputs_to_mutate().empty() || graph_mutates_in_place(program.graph);
}

// "torch.ops.aten.batch_norm.default" -> "batch_norm".
std::string short_target(const std::string& target) {
  std::string name = target;
  const std::string prefix = "torch.ops.aten.";
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  const size_t dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// Sums node times per operator target.
class OperatorProfile : public NodeObserver {
 public:
  void node_finished(const PreparedNode& node, double milliseconds) override {
    // A fused node is listed under every target it computes: "conv2d + batch_norm + hardtanh_".
    std::string target = node.node->target;
    for (const Node* fused : node.fused) target += " + " + short_target(fused->target);
    Entry& entry = by_target_[target];
    entry.calls += 1;
    entry.ms += milliseconds;
  }

  val to_js() const {
    std::vector<std::pair<std::string, Entry>> rows(by_target_.begin(), by_target_.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
    val out = val::array();
    for (size_t i = 0; i < rows.size(); ++i) {
      val row = val::object();
      row.set("target", rows[i].first);
      row.set("calls", rows[i].second.calls);
      row.set("ms", rows[i].second.ms);
      out.set(i, row);
    }
    return out;
  }

 private:
  struct Entry {
    int calls = 0;
    double ms = 0;
  };
  std::map<std::string, Entry> by_target_;
};

// Detaches the observer however the run ends.
class ObserverScope {
 public:
  ObserverScope(Session& session, NodeObserver* observer) : session_(session) { session_.set_observer(observer); }
  ~ObserverScope() { session_.set_observer(nullptr); }
  ObserverScope(const ObserverScope&) = delete;
  ObserverScope& operator=(const ObserverScope&) = delete;

 private:
  Session& session_;
};

}  // namespace

const Session& ProgramBinding::session() const {
  if (!session_) fail(ErrorCode::BadInput, "the program is not loaded (or was disposed)");
  return *session_;
}

Session& ProgramBinding::session() {
  return const_cast<Session&>(static_cast<const ProgramBinding*>(this)->session());
}

val ProgramBinding::load(const val& bytes, const std::string& label) {
  return guarded([&] {
    ArchiveLayout layout;
    ExportedProgram program = load_pt2(bytes_from_js(bytes), label, &layout);
    verify_program(program);
    std::string description = description_text(program, layout);
    bool mutates = may_mutate_inputs(program);
    session_ = std::make_unique<Session>(std::move(program));
    description_ = std::move(description);
    mutates_inputs_ = mutates;
    return val::undefined();
  });
}

val ProgramBinding::describe() const {
  return guarded([&] {
    session();
    return val(description_);
  });
}

val ProgramBinding::run_session(const val& args, const val& kwargs) {
  parallel::ScopedThreadCount threads(threads_);
  parallel::wake_workers();  // they wake while the inputs are converted
  Session& s = session();
  InputConverter inputs(s.program().call_signature().in_spec);
  PyValue py_args = inputs.args(args);
  PyValue py_kwargs = inputs.kwargs(kwargs);
  PyValue outputs = s.run(py_args, py_kwargs);
  if (mutates_inputs_) inputs.write_back();
  return to_js(outputs);
}

val ProgramBinding::set_threads(int threads) {
  return guarded([&] {
    if (threads < 1) fail(ErrorCode::BadInput, "threads must be a whole number of at least 1, got ", threads);
    threads_ = parallel::threads_supported() ? threads : 1;
    return val(threads_);
  });
}

bool threads_supported() { return parallel::threads_supported(); }

val ProgramBinding::run(const val& args, const val& kwargs) {
  return guarded([&] { return run_session(args, kwargs); });
}

val ProgramBinding::run_profiled(const val& args, const val& kwargs) {
  return guarded([&] {
    OperatorProfile profile;
    val outputs = val::undefined();
    {
      ObserverScope scope(session(), &profile);
      outputs = run_session(args, kwargs);
    }
    val result = val::object();
    result.set("outputs", outputs);
    result.set("profile", profile.to_js());
    return result;
  });
}

val ProgramBinding::memory() const {
  return guarded([&] {
    const Session& s = session();
    val result = val::object();
    result.set("plannedBytes", static_cast<double>(s.planned_bytes()));
    result.set("unplannedBytes", static_cast<double>(s.unplanned_bytes()));
    return result;
  });
}

val ProgramBinding::state_dict() const {
  return guarded([&] {
    val out = val::array();
    size_t i = 0;
    for (const auto& [name, tensor] : session().state_dict()) {
      val pair = val::array();
      pair.set(0, name);
      pair.set(1, tensor_to_js(tensor));
      out.set(i++, pair);
    }
    return out;
  });
}

val ProgramBinding::reset_state() {
  return guarded([&] {
    session().reset_state();
    return val::undefined();
  });
}

val ProgramBinding::example_inputs() const {
  return guarded([&] {
    const auto& program = session().program();
    if (!program.example_inputs) {
      if (program.example_inputs_unavailable.empty()) return val::null();
      fail(ErrorCode::Unsupported, "the archive's example inputs cannot be read (the program itself loads and runs): ",
           program.example_inputs_unavailable);
    }
    return to_js(*program.example_inputs);
  });
}

val ProgramBinding::printed() const {
  return guarded([&] { return val(print_program(session().program())); });
}

val inspect_archive(const val& bytes, const std::string& label) {
  return guarded([&] {
    ArchiveLayout layout;
    ExportedProgram program = load_pt2(bytes_from_js(bytes), label, &layout);
    verify_program(program);
    return val(description_text(program, layout));
  });
}

val heap_stats() {
  struct mallinfo info = mallinfo();
  val result = val::object();
  result.set("inUse", static_cast<double>(info.uordblks));
  result.set("heapSize", val::module_property("HEAP8")["length"]);
  return result;
}

}  // namespace pt2web::js
