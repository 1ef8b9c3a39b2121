// Activation composites: relu6 is hardtanh(x, 0, 6) (ATen's Activation.cpp).
#include "passes/decomposition_table.h"

namespace pt2web {

namespace {

bool relu6(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  bind_outputs(b, node, {b.emit1("aten.hardtanh.default", {tensor_arg(x), float_arg(0.0), float_arg(6.0)},
                                 output_meta(b, node))});
  return true;
}

}  // namespace

void add_activation_decompositions(DecompositionTable& t) { t["aten::relu6.default"] = relu6; }

}  // namespace pt2web
