#include "program_binding.h"

#include "io/pt2_loader.h"
#include "js_result.h"
#include "js_tensor.h"
#include "js_values.h"
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

val ProgramBinding::run(const val& args, const val& kwargs) {
  return guarded([&] {
    Session& s = session();
    InputConverter inputs(s.program().call_signature().in_spec);
    PyValue py_args = inputs.args(args);
    PyValue py_kwargs = inputs.kwargs(kwargs);
    PyValue outputs = s.run(py_args, py_kwargs);
    if (mutates_inputs_) inputs.write_back();
    return to_js(outputs);
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

}  // namespace pt2web::js
