#include "runtime/input_mutation.h"

#include "ops/registry.h"
#include "passes/fx_names.h"

namespace pt2web {

namespace {

// An in-place ATen overload: the operator name ends in '_' ("aten::add_.Tensor").
bool is_in_place(const std::string& target) {
  const std::string name = fx_base_name(qualified_op_name(target));
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

}  // namespace

bool may_mutate_inputs(const ExportedProgram& program) {
  return !program.signature.user_inputs_to_mutate().empty() || graph_mutates_in_place(program.graph);
}

}  // namespace pt2web
