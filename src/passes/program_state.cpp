#include "passes/program_state.h"

#include <vector>

#include "ops/registry.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

std::map<std::string, Tensor> state_by_placeholder(const ExportedProgram& p) {
  std::map<std::string, Tensor> out;
  for (const InputSpec& spec : p.signature.input_specs) {
    if (spec.arg.kind != Argument::Kind::Tensor) continue;
    if (spec.kind == InputKind::Parameter || spec.kind == InputKind::Buffer) {
      auto it = p.state_dict.find(spec.target);
      if (it != p.state_dict.end()) {
        out[spec.arg.name] = it->second;
        continue;
      }
      // Non-persistent buffers live with the constants.
      auto c = p.constants.find(spec.target);
      if (c != p.constants.end() && c->second.kind == PyValue::Kind::Tensor) out[spec.arg.name] = c->second.tensor;
    } else if (spec.kind == InputKind::ConstantTensor) {
      auto it = p.constants.find(spec.target);
      if (it != p.constants.end() && it->second.kind == PyValue::Kind::Tensor) out[spec.arg.name] = it->second.tensor;
    }
  }
  return out;
}

std::set<std::string> written_placeholders(const ExportedProgram& p) {
  std::set<std::string> written;
  std::map<std::string, std::string> placeholder_of;
  for (const InputSpec& spec : p.signature.input_specs)
    if (spec.arg.kind == Argument::Kind::Tensor) placeholder_of[spec.target] = spec.arg.name;
  for (const OutputSpec& spec : p.signature.output_specs) {
    if (spec.kind == OutputKind::BufferMutation) {
      auto it = placeholder_of.find(spec.target);
      if (it != placeholder_of.end()) written.insert(it->second);
    } else if (spec.kind == OutputKind::UserInputMutation) {
      written.insert(spec.target);
    }
  }
  for (const Node& n : p.graph.nodes) {
    const OpEntry* entry = op_table().find(qualified_op_name(n.target));
    if (!entry) continue;
    for (const auto& in : n.inputs) {
      int index = entry->schema.argument_index(in.name);
      if (index < 0 || !entry->schema.arguments[static_cast<size_t>(index)].is_mutable) continue;
      if (in.arg.kind == Argument::Kind::Tensor) written.insert(in.arg.name);
      for (const auto& name : in.arg.names) written.insert(name);
    }
  }
  return written;
}

Argument add_constant_input(ExportedProgram& p, const std::string& target, const Tensor& tensor) {
  PyValue v;
  v.kind = PyValue::Kind::Tensor;
  v.tensor = tensor;
  p.constants[target] = v;
  p.constants_order.push_back(target);
  std::vector<SymInt> sizes;
  for (int64_t d : tensor.sizes()) sizes.push_back(sym_const(d));
  Argument arg;
  arg.kind = Argument::Kind::Tensor;
  arg.name = "c_" + target;
  p.graph.tensor_values[arg.name] = contiguous_meta(tensor.dtype(), sizes);
  InputSpec spec;
  spec.kind = InputKind::ConstantTensor;
  spec.arg = arg;
  spec.target = target;
  size_t at = 0;
  while (at < p.signature.input_specs.size() && p.signature.input_specs[at].kind != InputKind::UserInput &&
         p.signature.input_specs[at].kind != InputKind::Token)
    ++at;
  p.signature.input_specs.insert(p.signature.input_specs.begin() + static_cast<long>(at), spec);
  p.graph.inputs.insert(p.graph.inputs.begin() + static_cast<long>(at), arg);
  return arg;
}

}  // namespace pt2web
