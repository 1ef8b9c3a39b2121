// Reductions: sum.default is sum.dim_IntList(self, []) (torch/_decomp's
// sum_default); softmax and log_softmax are _softmax / _log_softmax;
// var.dim is var.correction with an integer correction (ATen's composite);
// std.dim and std.correction are sqrt(var.correction) with the dims wrapped
// and a float correction (torch/_refs std).
#include "passes/decomposition_table.h"
#include "passes/tensor_meta_rules.h"

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

// The correction as std/var give it: `correction` when the node has one,
// else 1 or 0 from `unbiased` (default true).
double correction_of(const Node& node) {
  const Argument* c = node_input(node, "correction");
  if (c && c->kind == Argument::Kind::Int) return static_cast<double>(c->ints.at(0));
  if (c && c->kind == Argument::Kind::Float) return c->floats.at(0);
  return input_bool(node, "unbiased", true) ? 1.0 : 0.0;
}

std::vector<std::pair<std::string, Argument>> keepdim_kwarg(const Node& node) {
  if (!input_bool(node, "keepdim", false)) return {};
  return {{"keepdim", bool_arg(true)}};
}

bool var_dim(GraphBuilder& b, const Node& node) {
  const Argument* dims = node_input(node, "dim");
  if (!dims || dims->kind != Argument::Kind::Ints) return false;
  std::string x = input_tensor(b, node, "self");
  std::vector<std::pair<std::string, Argument>> kwargs = {
      {"correction", int_arg(static_cast<int64_t>(correction_of(node)))}};
  for (auto& k : keepdim_kwarg(node)) kwargs.push_back(k);
  bind_outputs(b, node, {b.emit1("aten.var.correction", {tensor_arg(x), *dims}, output_meta(b, node), kwargs)});
  return true;
}

bool std_dims(GraphBuilder& b, const Node& node) {
  const Argument* dims = node_input(node, "dim");
  if (!dims || dims->kind != Argument::Kind::Ints) return false;
  std::string x = input_tensor(b, node, "self");
  const TensorMeta& m = b.meta(x);
  if (m.dtype != DType::Float32 && m.dtype != DType::Float64) return false;  // torch computes halves in float32
  std::vector<int64_t> wrapped;
  for (int64_t d : dims->ints) wrapped.push_back(wrap_dim(d, m.sizes.size()));
  std::vector<std::pair<std::string, Argument>> kwargs = {{"correction", float_arg(correction_of(node))}};
  for (auto& k : keepdim_kwarg(node)) kwargs.push_back(k);
  const TensorMeta& out = output_meta(b, node);
  std::string var = b.emit1("aten.var.correction", {tensor_arg(x), ints_arg(wrapped)}, out, kwargs);
  bind_outputs(b, node, {b.emit1("aten.sqrt.default", {tensor_arg(var)}, out)});
  return true;
}

}  // namespace

void add_reduction_decompositions(DecompositionTable& t) {
  t["aten::sum.default"] = sum_all;
  t["aten::softmax.int"] = softmax;
  t["aten::log_softmax.int"] = log_softmax;
  t["aten::var.dim"] = var_dim;
  t["aten::std.dim"] = std_dims;
  t["aten::std.correction"] = std_dims;
}

}  // namespace pt2web
