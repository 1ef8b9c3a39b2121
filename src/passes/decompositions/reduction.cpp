// Reductions: sum.default is sum.dim_IntList(self, []) (torch/_decomp's
// sum_default); softmax and log_softmax are _softmax / _log_softmax.
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

// softmax / log_softmax without a dtype: the internal kernels with half_to_float=False.
bool softmax_like(GraphBuilder& b, const Node& node, const char* op) {
  const Argument* dtype = node_input(node, "dtype");
  if (dtype && dtype->kind != Argument::Kind::None) return false;
  std::string x = input_tensor(b, node, "self");
  bind_outputs(b, node, {b.emit1(op, {tensor_arg(x), int_arg(input_int(node, "dim", 0)), bool_arg(false)}, output_meta(b, node))});
  return true;
}

bool softmax(GraphBuilder& b, const Node& node) { return softmax_like(b, node, "aten._softmax.default"); }
bool log_softmax(GraphBuilder& b, const Node& node) { return softmax_like(b, node, "aten._log_softmax.default"); }

}  // namespace

void add_reduction_decompositions(DecompositionTable& t) {
  t["aten::sum.default"] = sum_all;
  t["aten::softmax.int"] = softmax;
  t["aten::log_softmax.int"] = log_softmax;
}

}  // namespace pt2web
