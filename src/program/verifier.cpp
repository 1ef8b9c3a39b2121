// verify_program: structural consistency checks run once at load, so the
// runtime can trust names, counts and state without re-checking them.
#include <set>

#include "program/exported_program.h"
#include "util/error.h"

namespace pt2web {

namespace {

// Names a graph defines: its inputs and every node output. Each value is
// defined once (the runtime keys values by name).
void collect_defined(const Argument& a, std::set<std::string>& defined, const std::string& where) {
  auto define = [&](const std::string& name) {
    if (!name.empty() && !defined.insert(name).second)
      fail(ErrorCode::BadProgram, where, " defines value '", name, "' a second time");
  };
  switch (a.kind) {
    case Argument::Kind::Tensor:
    case Argument::Kind::SymInt:
    case Argument::Kind::SymBool:
    case Argument::Kind::SymFloat:
    case Argument::Kind::CustomObj: define(a.name); break;
    case Argument::Kind::Tensors:
    case Argument::Kind::OptionalTensors:
      for (const auto& n : a.names) define(n);
      break;
    default: break;
  }
}

void check_uses(const Argument& a, const std::set<std::string>& defined, const std::string& where) {
  auto check = [&](const std::string& name) {
    if (!name.empty() && defined.count(name) == 0)
      fail(ErrorCode::BadProgram, where, " uses value '", name, "' before it is defined");
  };
  switch (a.kind) {
    case Argument::Kind::Tensor:
    case Argument::Kind::CustomObj: check(a.name); break;
    case Argument::Kind::SymInt:
    case Argument::Kind::SymBool:
    case Argument::Kind::SymFloat:
    case Argument::Kind::Tensors:
    case Argument::Kind::OptionalTensors:
    case Argument::Kind::SymInts:
    case Argument::Kind::SymBools:
    case Argument::Kind::SymFloats:
      for (const auto& n : a.names) check(n);
      break;
    default: break;
  }
}

void verify_graph(const Graph& graph, const std::string& label) {
  std::set<std::string> defined;
  for (const auto& input : graph.inputs) collect_defined(input, defined, label + " input");
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& node = graph.nodes[i];
    std::string where = label + " node " + std::to_string(i) + " (" + node.target + ")";
    for (const auto& in : node.inputs) {
      check_uses(in.arg, defined, where);
      if (in.arg.kind == Argument::Kind::Graph) verify_graph(*in.arg.graph, label + "." + in.arg.name);
    }
    for (const auto& out : node.outputs) {
      collect_defined(out, defined, where);
      if (out.kind == Argument::Kind::Tensor && !graph.tensor_values.count(out.name))
        fail(ErrorCode::BadProgram, where, " output '", out.name, "' has no tensor metadata");
    }
  }
  for (const auto& out : graph.outputs) check_uses(out, defined, label + " output");
}

}  // namespace

void verify_program(const ExportedProgram& ep) {
  const Graph& g = ep.graph;
  const auto& sig = ep.signature;
  if (g.inputs.size() != sig.input_specs.size())
    fail(ErrorCode::BadProgram, "the graph has ", g.inputs.size(), " placeholders but the signature has ",
         sig.input_specs.size(), " input specs");
  if (g.outputs.size() != sig.output_specs.size())
    fail(ErrorCode::BadProgram, "the graph has ", g.outputs.size(), " outputs but the signature has ",
         sig.output_specs.size(), " output specs");
  for (size_t i = 0; i < sig.input_specs.size(); ++i) {
    const InputSpec& spec = sig.input_specs[i];
    const Argument& placeholder = g.inputs[i];
    std::string where = "input spec " + std::to_string(i) + " (" + input_kind_name(spec.kind) + " " +
                        (spec.target.empty() ? spec.arg.name : spec.target) + ")";
    if (!spec.is_constant_input && !spec.arg.name.empty() && placeholder.name != spec.arg.name)
      fail(ErrorCode::BadProgram, where, " names placeholder '", spec.arg.name,
           "' but placeholder ", i, " is '", placeholder.name, "'");
    if (placeholder.kind == Argument::Kind::Tensor && !g.tensor_values.count(placeholder.name))
      fail(ErrorCode::BadProgram, where, ": placeholder '", placeholder.name, "' has no tensor metadata");
    switch (spec.kind) {
      case InputKind::Parameter:
        if (!ep.state_dict.count(spec.target))
          fail(ErrorCode::BadProgram, where, ": parameter '", spec.target, "' is missing from the state dict");
        break;
      case InputKind::Buffer: {
        bool persistent = spec.persistent.value_or(true);
        bool found = persistent ? ep.state_dict.count(spec.target) > 0 : ep.constants.count(spec.target) > 0;
        if (!found)
          fail(ErrorCode::BadProgram, where, ": ", persistent ? "persistent" : "non-persistent", " buffer '",
               spec.target, "' is missing from the ", persistent ? "state dict" : "constants");
        break;
      }
      case InputKind::ConstantTensor:
        if (!ep.constants.count(spec.target))
          fail(ErrorCode::BadProgram, where, ": constant '", spec.target, "' is missing from the constants");
        break;
      case InputKind::CustomObj:
        if (!ep.constants.count(spec.target))
          fail(ErrorCode::BadProgram, where, ": custom object '", spec.target, "' is missing from the constants");
        break;
      default: break;
    }
  }
  std::set<std::string> buffers, user_inputs;
  for (const auto& s : sig.input_specs) {
    if (s.kind == InputKind::Buffer) buffers.insert(s.target);
    if (s.kind == InputKind::UserInput) user_inputs.insert(s.arg.name);
  }
  for (size_t i = 0; i < sig.output_specs.size(); ++i) {
    const OutputSpec& spec = sig.output_specs[i];
    std::string where = "output spec " + std::to_string(i) + " (" + output_kind_name(spec.kind) + ")";
    if (spec.kind == OutputKind::BufferMutation && !buffers.count(spec.target))
      fail(ErrorCode::BadProgram, where, " mutates '", spec.target, "', which is not a buffer input");
    if (spec.kind == OutputKind::UserInputMutation && !user_inputs.count(spec.target))
      fail(ErrorCode::BadProgram, where, " mutates '", spec.target, "', which is not a user input");
    if (spec.arg.kind == Argument::Kind::Tensor && g.outputs[i].name != spec.arg.name)
      fail(ErrorCode::BadProgram, where, " names '", spec.arg.name, "' but graph output ", i, " is '",
           g.outputs[i].name, "'");
  }
  verify_graph(g, "graph");
  for (const auto& [symbol, range] : ep.range_constraints)
    if (range.min_val && range.max_val && *range.min_val > *range.max_val)
      fail(ErrorCode::BadProgram, "range constraint for ", symbol, " is empty: [", *range.min_val, ", ",
           *range.max_val, "]");
  const ModuleCallSignature& call = ep.call_signature();
  size_t user_inputs_count = 0;
  for (const auto& s : sig.input_specs)
    if (s.kind == InputKind::UserInput) ++user_inputs_count;
  if (call.in_spec.num_leaves != user_inputs_count)
    fail(ErrorCode::BadProgram, "in_spec has ", call.in_spec.num_leaves, " leaves but the signature has ",
         user_inputs_count, " user inputs");
  size_t user_outputs_count = sig.user_outputs().size();
  if (call.out_spec.num_leaves != user_outputs_count)
    fail(ErrorCode::BadProgram, "out_spec has ", call.out_spec.num_leaves, " leaves but the signature has ",
         user_outputs_count, " user outputs");
}

}  // namespace pt2web
