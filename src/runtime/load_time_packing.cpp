#include "runtime/load_time_packing.h"

#include <algorithm>
#include <optional>

#include "kernels/gemm/gemm.h"
#include "passes/program_state.h"

namespace pt2web {

namespace {

const Argument* input_named(const Node& n, const std::string& name) {
  for (const auto& in : n.inputs)
    if (in.name == name) return &in.arg;
  return nullptr;
}

// An int-list argument, or `fallback` when absent (the schema's default).
std::optional<std::vector<int64_t>> ints_or(const Node& n, const std::string& name, std::vector<int64_t> fallback) {
  const Argument* a = input_named(n, name);
  if (!a) return fallback;
  if (a->kind == Argument::Kind::Ints || a->kind == Argument::Kind::Int) return a->ints;
  if (a->kind == Argument::Kind::SymInts && std::all_of(a->names.begin(), a->names.end(), [](const std::string& s) {
        return s.empty();
      }))
    return a->ints;
  return std::nullopt;
}

bool all_equal(const std::optional<std::vector<int64_t>>& values, int64_t v) {
  return values && std::all_of(values->begin(), values->end(), [&](int64_t x) { return x == v; });
}

// A 2-d 1x1 convolution with unit stride, no padding and one group, not transposed.
bool is_pointwise_conv(const Node& n) {
  const bool conv2d = n.target == "torch.ops.aten.conv2d.default";
  if (!conv2d && n.target != "torch.ops.aten.convolution.default") return false;
  if (!conv2d) {
    const Argument* transposed = input_named(n, "transposed");
    if (!transposed || transposed->bools.empty() || transposed->bools[0]) return false;
  }
  const Argument* groups = input_named(n, "groups");
  if (groups && (groups->ints.empty() || groups->ints[0] != 1)) return false;
  return all_equal(ints_or(n, "stride", {1}), 1) && all_equal(ints_or(n, "padding", {0}), 0);
}

// The static sizes of a value, or nullopt when any is symbolic.
std::optional<std::vector<int64_t>> static_sizes(const Graph& g, const std::string& name) {
  auto it = g.tensor_values.find(name);
  if (it == g.tensor_values.end()) return std::nullopt;
  std::vector<int64_t> sizes;
  for (const SymInt& s : it->second.sizes) {
    if (s.is_symbolic) return std::nullopt;
    sizes.push_back(s.value);
  }
  return sizes;
}

std::set<std::string> names_read(const Graph& g) {
  std::set<std::string> names;
  auto add = [&](const Argument& a) {
    if (a.kind == Argument::Kind::Tensor) names.insert(a.name);
    for (const auto& n : a.names) names.insert(n);
  };
  for (const Node& n : g.nodes)
    for (const auto& in : n.inputs) add(in.arg);
  for (const auto& o : g.outputs) add(o);
  return names;
}

// Drops lifted constants added after loading that no node reads.
void drop_unread_constants(ExportedProgram& p, const std::map<std::string, PyValue>& original_constants) {
  const std::set<std::string> read = names_read(p.graph);
  std::set<std::string> dropped;
  auto& specs = p.signature.input_specs;
  specs.erase(std::remove_if(specs.begin(), specs.end(),
                             [&](const InputSpec& spec) {
                               const bool drop = spec.kind == InputKind::ConstantTensor &&
                                                 !original_constants.count(spec.target) &&
                                                 !read.count(spec.arg.name);
                               if (drop) dropped.insert(spec.arg.name), p.constants.erase(spec.target);
                               return drop;
                             }),
              specs.end());
  if (dropped.empty()) return;
  auto& inputs = p.graph.inputs;
  inputs.erase(std::remove_if(inputs.begin(), inputs.end(),
                              [&](const Argument& a) { return a.kind == Argument::Kind::Tensor && dropped.count(a.name); }),
               inputs.end());
  auto& order = p.constants_order;
  order.erase(std::remove_if(order.begin(), order.end(), [&](const std::string& t) { return !p.constants.count(t); }),
              order.end());
}

// A float32 linear layer: 2-d weight, none or a 1-d bias of its out features.
bool is_linear(const Node& n) { return n.target == "torch.ops.aten.linear.default"; }

// The static number of rows of a linear layer's input (every leading dim),
// or nullopt when any size is symbolic or the input is not float32 with
// `in_features` in its last dim.
std::optional<int64_t> linear_rows(const Graph& g, const std::string& input, int64_t in_features) {
  auto meta = g.tensor_values.find(input);
  if (meta == g.tensor_values.end() || meta->second.dtype != DType::Float32) return std::nullopt;
  auto sizes = static_sizes(g, input);
  if (!sizes || sizes->empty() || sizes->back() != in_features) return std::nullopt;
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < sizes->size(); ++i) rows *= (*sizes)[i];
  return rows;
}

bool is_float_vector(const Graph& g, const std::string& name, int64_t length) {
  auto meta = g.tensor_values.find(name);
  auto sizes = static_sizes(g, name);
  return meta != g.tensor_values.end() && meta->second.dtype == DType::Float32 && sizes &&
         *sizes == std::vector<int64_t>{length};
}

NamedArgument named(const std::string& name, Argument a) {
  NamedArgument na;
  na.name = name;
  na.arg = std::move(a);
  return na;
}

Argument int_argument(int64_t v) {
  Argument a;
  a.kind = Argument::Kind::Int;
  a.ints = {v};
  return a;
}

// What a packed node needs: its weight W [rows, cols] (a 1x1 convolution's
// [out, in, 1, 1] read as [out, in]) and the node's new inputs, filled in
// around the packed weight's argument.
struct PackingChoice {
  Tensor weight;
  int64_t rows = 0, cols = 0;
  std::string target;
  std::vector<NamedArgument> inputs;  // the packed weight's goes second
};

std::optional<PackingChoice> pointwise_choice(const Graph& g, const Node& node, const Tensor& w) {
  if (!is_pointwise_conv(node)) return std::nullopt;
  if (w.dtype() != DType::Float32 || w.dim() != 4 || w.size(2) != 1 || w.size(3) != 1) return std::nullopt;
  const Argument* input_arg = input_named(node, "input");
  const Argument* bias_arg = input_named(node, "bias");
  if (!input_arg || input_arg->kind != Argument::Kind::Tensor) return std::nullopt;
  if (bias_arg && bias_arg->kind != Argument::Kind::None && bias_arg->kind != Argument::Kind::Tensor)
    return std::nullopt;
  auto out = static_sizes(g, node.outputs[0].name);
  if (!out || out->size() < 3) return std::nullopt;
  const int64_t out_channels = w.size(0), in_channels = w.size(1);
  const int64_t plane = (*out)[out->size() - 1] * (*out)[out->size() - 2];
  if (!gemm_f32_computes_transposed(out_channels, plane, in_channels)) return std::nullopt;
  Argument none;
  none.kind = Argument::Kind::None;
  return PackingChoice{w, out_channels, in_channels, "torch.ops.pt2web.packed_pointwise_conv.default",
                       {named("input", *input_arg), named("bias", bias_arg ? *bias_arg : none),
                        named("out_channels", int_argument(out_channels)),
                        named("in_channels", int_argument(in_channels))}};
}

// Linear layers of few static rows (a batch-1 step; gemm_f32_reads_weight_in_place):
// each call reads the whole weight once, which the packed panels serve at
// close to a plain read's rate. Wider products keep packing B per call (a
// copy that is 1/rows of their work) and their weights are not held twice.
std::optional<PackingChoice> linear_choice(const Graph& g, const Node& node, const Tensor& w) {
  if (!is_linear(node) || w.dtype() != DType::Float32 || w.dim() != 2) return std::nullopt;
  const Argument* input_arg = input_named(node, "input");
  const Argument* bias_arg = input_named(node, "bias");
  if (!input_arg || input_arg->kind != Argument::Kind::Tensor) return std::nullopt;
  const int64_t out_features = w.size(0), in_features = w.size(1);
  Argument none;
  none.kind = Argument::Kind::None;
  const bool no_bias = !bias_arg || bias_arg->kind == Argument::Kind::None;
  if (!no_bias && (bias_arg->kind != Argument::Kind::Tensor || !is_float_vector(g, bias_arg->name, out_features)))
    return std::nullopt;
  auto rows = linear_rows(g, input_arg->name, in_features);
  if (!rows || !gemm_f32_reads_weight_in_place(*rows)) return std::nullopt;
  return PackingChoice{w, out_features, in_features, "torch.ops.pt2web.packed_linear.default",
                       {named("input", *input_arg), named("bias", no_bias ? none : *bias_arg),
                        named("out_features", int_argument(out_features)),
                        named("in_features", int_argument(in_features))}};
}

}  // namespace

bool pack_weights(ExportedProgram& program, const std::map<std::string, PyValue>& original_constants,
                  const std::set<std::string>& changing) {
  std::map<std::string, Tensor> state = state_by_placeholder(program);
  for (const auto& name : written_placeholders(program)) state.erase(name);
  for (const auto& name : changing) state.erase(name);
  std::map<std::string, std::string> constant_of;  // placeholder -> lifted constant added after loading
  for (const auto& spec : program.signature.input_specs)
    if (spec.kind == InputKind::ConstantTensor && !original_constants.count(spec.target))
      constant_of[spec.arg.name] = spec.target;
  bool packed_any = false;
  for (Node& node : program.graph.nodes) {
    if (node.outputs.size() != 1) continue;
    const Argument* weight_arg = input_named(node, "weight");
    if (!weight_arg || weight_arg->kind != Argument::Kind::Tensor) continue;
    auto weight = state.find(weight_arg->name);
    if (weight == state.end()) continue;
    std::optional<PackingChoice> choice = pointwise_choice(program.graph, node, weight->second);
    if (!choice) choice = linear_choice(program.graph, node, weight->second);
    if (!choice) continue;

    const Tensor contiguous = choice->weight.contiguous();
    Tensor packed = Tensor::empty(DType::Float32, {packed_weight_floats(choice->rows, choice->cols)});
    pack_weight_f32(choice->rows, choice->cols, MatrixF32{contiguous.data<float>(), choice->cols, 1},
                    packed.data<float>());
    const Argument packed_arg = add_constant_input(program, "packed_" + node.outputs[0].name + "_weight", packed);
    choice->inputs.insert(choice->inputs.begin() + 1, named("packed_weight", packed_arg));
    node.inputs = std::move(choice->inputs);
    node.target = choice->target;
    packed_any = true;
    // A folded weight read by nothing else is released now, not after the
    // loop, so load never holds every folded and packed copy at once.
    auto folded = constant_of.find(weight->first);
    if (folded != constant_of.end() && !names_read(program.graph).count(folded->first)) {
      program.constants[folded->second].tensor = Tensor();
      state.erase(weight);
    }
  }
  if (packed_any) drop_unread_constants(program, original_constants);
  return packed_any;
}

}  // namespace pt2web
