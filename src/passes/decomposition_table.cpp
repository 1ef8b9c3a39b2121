#include "passes/decomposition_table.h"

#include "util/error.h"

namespace pt2web {

DecompositionTable core_aten_decompositions() {
  DecompositionTable t;
  add_linear_decompositions(t);
  add_matmul_decompositions(t);
  add_einsum_decompositions(t);
  add_attention_decompositions(t);
  add_triangular_decompositions(t);
  add_padding_decompositions(t);
  add_upsample_decompositions(t);
  add_convolution_decompositions(t);
  add_normalization_decompositions(t);
  add_shape_decompositions(t);
  add_activation_decompositions(t);
  add_reduction_decompositions(t);
  add_pointwise_decompositions(t);
  add_creation_decompositions(t);
  return t;
}

const Argument* node_input(const Node& node, const std::string& name) {
  for (const auto& in : node.inputs)
    if (in.name == name) return &in.arg;
  return nullptr;
}

std::string input_tensor(GraphBuilder& b, const Node& node, const std::string& name) {
  const Argument* a = node_input(node, name);
  if (!a || a->kind == Argument::Kind::None) return "";
  if (a->kind != Argument::Kind::Tensor)
    fail(ErrorCode::BadProgram, node_label(node), ": argument '", name, "' is not a tensor");
  return b.value(a->name);
}

int64_t input_int(const Node& node, const std::string& name, int64_t fallback) {
  const Argument* a = node_input(node, name);
  if (!a || a->kind == Argument::Kind::None) return fallback;
  if (a->kind == Argument::Kind::SymInt && !a->name.empty())
    fail(ErrorCode::Unsupported, node_label(node), ": symbolic '", name, "' is not supported by this decomposition");
  if (a->kind == Argument::Kind::Bool) return a->bools.at(0) ? 1 : 0;
  if (a->ints.empty()) fail(ErrorCode::BadProgram, node_label(node), ": argument '", name, "' is not an int");
  return a->ints[0];
}

std::vector<int64_t> input_ints(const Node& node, const std::string& name, std::vector<int64_t> fallback) {
  const Argument* a = node_input(node, name);
  if (!a || a->kind == Argument::Kind::None) return fallback;
  for (const auto& n : a->names)
    if (!n.empty()) fail(ErrorCode::Unsupported, node_label(node), ": symbolic '", name, "' is not supported by this decomposition");
  return a->ints;
}

double input_float(const Node& node, const std::string& name, double fallback) {
  const Argument* a = node_input(node, name);
  if (!a || a->kind == Argument::Kind::None) return fallback;
  if (a->kind == Argument::Kind::Float) return a->floats.at(0);
  if (a->kind == Argument::Kind::Int) return static_cast<double>(a->ints.at(0));
  fail(ErrorCode::BadProgram, node_label(node), ": argument '", name, "' is not a number");
}

bool input_bool(const Node& node, const std::string& name, bool fallback) {
  const Argument* a = node_input(node, name);
  if (!a || a->kind == Argument::Kind::None) return fallback;
  if (a->kind != Argument::Kind::Bool) fail(ErrorCode::BadProgram, node_label(node), ": argument '", name, "' is not a bool");
  return a->bools.at(0);
}

namespace {

std::vector<std::string> tensor_outputs(const Node& node) {
  std::vector<std::string> out;
  for (const Argument& o : node.outputs) {
    if (o.kind == Argument::Kind::Tensor) out.push_back(o.name);
    if (o.kind == Argument::Kind::Tensors) out.insert(out.end(), o.names.begin(), o.names.end());
  }
  return out;
}

}  // namespace

const TensorMeta& output_meta(const GraphBuilder& b, const Node& node, size_t i) {
  auto outs = tensor_outputs(node);
  PT2WEB_CHECK(i < outs.size(), node_label(node), " has no output ", i);
  return b.source_meta(outs[i]);
}

void bind_outputs(GraphBuilder& b, const Node& node, const std::vector<std::string>& values) {
  auto outs = tensor_outputs(node);
  PT2WEB_CHECK(outs.size() == values.size(), node_label(node), ": decomposition gives ", values.size(),
               " values for ", outs.size(), " outputs");
  for (size_t i = 0; i < outs.size(); ++i) b.bind(outs[i], values[i]);
}

std::string node_label(const Node& node) {
  std::string first;
  for (const Argument& o : node.outputs) {
    if (!o.name.empty()) { first = o.name; break; }
    if (!o.names.empty()) { first = o.names[0]; break; }
  }
  return "node '" + first + "' (" + node.target + ")";
}

}  // namespace pt2web
