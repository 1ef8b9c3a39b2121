// Reductions over everything: sum.default is sum.dim_IntList(self, [])
// (torch/_decomp's sum_default).
#include "passes/decomposition_table.h"

namespace pt2web {

namespace {

bool sum_all(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  std::vector<std::pair<std::string, Argument>> kwargs;
  const Argument* dtype = node_input(node, "dtype");
  if (dtype && dtype->kind == Argument::Kind::ScalarType) kwargs.emplace_back("dtype", *dtype);
  bind_outputs(b, node, {b.emit1("aten.sum.dim_IntList", {tensor_arg(x), ints_arg({})}, output_meta(b, node), kwargs)});
  return true;
}

}  // namespace

void add_reduction_decompositions(DecompositionTable& t) { t["aten::sum.default"] = sum_all; }

}  // namespace pt2web
