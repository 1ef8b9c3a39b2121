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

}  // namespace

bool pack_pointwise_weights(ExportedProgram& program, const std::map<std::string, PyValue>& original_constants,
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
    if (!is_pointwise_conv(node) || node.outputs.size() != 1) continue;
    const Argument* weight_arg = input_named(node, "weight");
    const Argument* input_arg = input_named(node, "input");
    if (!weight_arg || weight_arg->kind != Argument::Kind::Tensor || !input_arg ||
        input_arg->kind != Argument::Kind::Tensor)
      continue;
    auto weight = state.find(weight_arg->name);
    if (weight == state.end()) continue;
    const Tensor& w = weight->second;
    if (w.dtype() != DType::Float32 || w.dim() != 4 || w.size(2) != 1 || w.size(3) != 1) continue;
    const Argument* bias_arg = input_named(node, "bias");
    if (bias_arg && bias_arg->kind != Argument::Kind::None && bias_arg->kind != Argument::Kind::Tensor) continue;
    auto out = static_sizes(program.graph, node.outputs[0].name);
    if (!out || out->size() < 3) continue;
    const int64_t out_channels = w.size(0), in_channels = w.size(1);
    const int64_t plane = (*out)[out->size() - 1] * (*out)[out->size() - 2];
    if (!gemm_f32_computes_transposed(out_channels, plane, in_channels)) continue;

    const Tensor contiguous = w.contiguous();
    Tensor packed = Tensor::empty(DType::Float32, {packed_weight_floats(out_channels, in_channels)});
    pack_weight_f32(out_channels, in_channels, MatrixF32{contiguous.data<float>(), in_channels, 1},
                    packed.data<float>());
    const Argument packed_arg = add_constant_input(program, "packed_" + node.outputs[0].name + "_weight", packed);
    auto named = [](const std::string& name, Argument a) {
      NamedArgument na;
      na.name = name;
      na.arg = std::move(a);
      return na;
    };
    Argument none, out_c, in_c;
    none.kind = Argument::Kind::None;
    out_c.kind = in_c.kind = Argument::Kind::Int;
    out_c.ints = {out_channels};
    in_c.ints = {in_channels};
    node.inputs = {named("input", *input_arg), named("packed_weight", packed_arg),
                   named("bias", bias_arg ? *bias_arg : none), named("out_channels", out_c),
                   named("in_channels", in_c)};
    node.target = "torch.ops.pt2web.packed_pointwise_conv.default";
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
