// Activation composites, in the order torch/_decomp and torch/_refs write
// them: relu6 -> hardtanh(x, 0, 6); hardswish, hardsigmoid -> clamps of x+3;
// silu -> x * sigmoid(x); softplus -> where(x*beta > threshold, x,
// log1p(exp(x*beta)) / beta); mish -> x * tanh(softplus(x)); elu -> where(x > 0,
// x*scale, expm1(x*input_scale) * alpha*scale).
#include "passes/decomposition_table.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

using Kwargs = std::vector<std::pair<std::string, Argument>>;

// Emits a one-output elementwise op whose result has the node's output shape.
std::string pointwise(GraphBuilder& b, const Node& node, const std::string& op, std::vector<Argument> args,
                      DType dtype, const Kwargs& kwargs = {}) {
  return b.emit1(op, args, with_dtype(output_meta(b, node), dtype), kwargs);
}

bool relu6(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  DType d = output_meta(b, node).dtype;
  bind_outputs(b, node, {pointwise(b, node, "aten.hardtanh.default", {tensor_arg(x), int_arg(0), int_arg(6)}, d)});
  return true;
}

// clamp(clamp(x + 3, 0), None, 6)
std::string relu6_of_x_plus_3(GraphBuilder& b, const Node& node, const std::string& x, DType d) {
  std::string shifted = pointwise(b, node, "aten.add.Tensor", {tensor_arg(x), int_arg(3)}, d);
  std::string low = pointwise(b, node, "aten.clamp.default", {tensor_arg(shifted), int_arg(0)}, d);
  return pointwise(b, node, "aten.clamp.default", {tensor_arg(low), none_arg(), int_arg(6)}, d);
}

bool hardswish(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  DType d = output_meta(b, node).dtype;
  std::string r = relu6_of_x_plus_3(b, node, x, d);
  std::string m = pointwise(b, node, "aten.mul.Tensor", {tensor_arg(x), tensor_arg(r)}, d);
  bind_outputs(b, node, {pointwise(b, node, "aten.div.Tensor", {tensor_arg(m), int_arg(6)}, d)});
  return true;
}

bool hardsigmoid(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  DType d = output_meta(b, node).dtype;
  std::string r = relu6_of_x_plus_3(b, node, x, d);
  bind_outputs(b, node, {pointwise(b, node, "aten.div.Tensor", {tensor_arg(r), int_arg(6)}, d)});
  return true;
}

bool silu(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  DType d = output_meta(b, node).dtype;
  std::string s = pointwise(b, node, "aten.sigmoid.default", {tensor_arg(x)}, d);
  bind_outputs(b, node, {pointwise(b, node, "aten.mul.Tensor", {tensor_arg(x), tensor_arg(s)}, d)});
  return true;
}

Argument number_arg(double v) {
  return v == static_cast<double>(static_cast<int64_t>(v)) ? int_arg(static_cast<int64_t>(v)) : float_arg(v);
}

std::string softplus_of(GraphBuilder& b, const Node& node, const std::string& x, double beta, double threshold, DType d) {
  std::string scaled = x;
  if (beta != 1.0) scaled = pointwise(b, node, "aten.mul.Tensor", {tensor_arg(x), number_arg(beta)}, d);
  std::string e = pointwise(b, node, "aten.exp.default", {tensor_arg(scaled)}, d);
  std::string rhs = pointwise(b, node, "aten.log1p.default", {tensor_arg(e)}, d);
  if (beta != 1.0) rhs = pointwise(b, node, "aten.div.Tensor", {tensor_arg(rhs), number_arg(beta)}, d);
  std::string above = pointwise(b, node, "aten.gt.Scalar", {tensor_arg(scaled), number_arg(threshold)}, DType::Bool);
  return pointwise(b, node, "aten.where.self", {tensor_arg(above), tensor_arg(x), tensor_arg(rhs)}, d);
}

bool softplus(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  DType d = output_meta(b, node).dtype;
  bind_outputs(b, node, {softplus_of(b, node, x, input_float(node, "beta", 1.0), input_float(node, "threshold", 20.0), d)});
  return true;
}

bool mish(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  DType d = output_meta(b, node).dtype;
  std::string sp = softplus_of(b, node, x, 1.0, 20.0, d);
  std::string t = pointwise(b, node, "aten.tanh.default", {tensor_arg(sp)}, d);
  bind_outputs(b, node, {pointwise(b, node, "aten.mul.Tensor", {tensor_arg(x), tensor_arg(t)}, d)});
  return true;
}

bool elu(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  DType d = output_meta(b, node).dtype;
  double alpha = input_float(node, "alpha", 1.0), scale = input_float(node, "scale", 1.0);
  double input_scale = input_float(node, "input_scale", 1.0);
  std::string positive = pointwise(b, node, "aten.gt.Scalar", {tensor_arg(x), int_arg(0)}, DType::Bool);
  std::string pos = pointwise(b, node, "aten.mul.Tensor", {tensor_arg(x), float_arg(scale)}, d);
  std::string in = pointwise(b, node, "aten.mul.Tensor", {tensor_arg(x), float_arg(input_scale)}, d);
  std::string em = pointwise(b, node, "aten.expm1.default", {tensor_arg(in)}, d);
  std::string neg = pointwise(b, node, "aten.mul.Tensor", {tensor_arg(em), float_arg(alpha * scale)}, d);
  bind_outputs(b, node, {pointwise(b, node, "aten.where.self", {tensor_arg(positive), tensor_arg(pos), tensor_arg(neg)}, d)});
  return true;
}

}  // namespace

void add_activation_decompositions(DecompositionTable& t) {
  t["aten::relu6.default"] = relu6;
  t["aten::hardswish.default"] = hardswish;
  t["aten::hardsigmoid.default"] = hardsigmoid;
  t["aten::silu.default"] = silu;
  t["aten::softplus.default"] = softplus;
  t["aten::mish.default"] = mish;
  t["aten::elu.default"] = elu;
}

}  // namespace pt2web
