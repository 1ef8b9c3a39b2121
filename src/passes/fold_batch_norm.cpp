#include "passes/fold_batch_norm.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "passes/program_state.h"

namespace pt2web {

namespace {

// Convolutions in both dialects: Core ATen's convolution (which has a
// `transposed` flag) and the TRAINING dialect's conv1d/2d/3d.
bool is_convolution(const std::string& target) {
  return target == "torch.ops.aten.convolution.default" || target == "torch.ops.aten.conv1d.default" ||
         target == "torch.ops.aten.conv2d.default" || target == "torch.ops.aten.conv3d.default";
}

const Argument* input_named(const Node& n, const std::string& name) {
  for (const auto& in : n.inputs)
    if (in.name == name) return &in.arg;
  return nullptr;
}

// How many times each value is read (node inputs, graph outputs).
std::map<std::string, int> read_counts(const Graph& g) {
  std::map<std::string, int> reads;
  auto count = [&](const Argument& a) {
    if (a.kind == Argument::Kind::Tensor) ++reads[a.name];
    for (const auto& n : a.names) ++reads[n];
  };
  for (const Node& n : g.nodes)
    for (const auto& in : n.inputs) count(in.arg);
  for (const auto& o : g.outputs) count(o);
  return reads;
}

std::optional<Tensor> state_of(const std::map<std::string, Tensor>& state, const Argument* a) {
  if (!a || a->kind != Argument::Kind::Tensor) return std::nullopt;
  auto it = state.find(a->name);
  if (it == state.end()) return std::nullopt;
  return it->second.contiguous();
}

template <typename T>
std::pair<Tensor, Tensor> folded(const Tensor& w, const std::optional<Tensor>& bias, const std::optional<Tensor>& gamma,
                                 const std::optional<Tensor>& beta, const Tensor& mean, const Tensor& var, double eps) {
  int64_t out_channels = w.size(0);
  int64_t per_channel = out_channels ? w.numel() / out_channels : 0;
  // Every element is written below.
  Tensor fw = Tensor::uninitialized(w.dtype(), w.sizes());
  Tensor fb = Tensor::uninitialized(w.dtype(), {out_channels});
  const T* pw = w.data<T>();
  T* qw = fw.data<T>();
  T* qb = fb.data<T>();
  for (int64_t o = 0; o < out_channels; ++o) {
    double g = gamma ? static_cast<double>(gamma->data<T>()[o]) : 1.0;
    double scale = g / std::sqrt(static_cast<double>(var.data<T>()[o]) + eps);
    for (int64_t i = 0; i < per_channel; ++i)
      qw[o * per_channel + i] = static_cast<T>(static_cast<double>(pw[o * per_channel + i]) * scale);
    double b = bias ? static_cast<double>(bias->data<T>()[o]) : 0.0;
    double shift = beta ? static_cast<double>(beta->data<T>()[o]) : 0.0;
    qb[o] = static_cast<T>((b - static_cast<double>(mean.data<T>()[o])) * scale + shift);
  }
  return {fw, fb};
}

// An inference batch norm in either dialect: Core ATen's
// _native_batch_norm_legit_no_training (whose statistics outputs must be
// unread) or the TRAINING dialect's batch_norm with training=False.
bool is_inference_batch_norm(const Node& bn, const std::map<std::string, int>& reads) {
  auto read = [&](const Argument& a) {
    auto it = reads.find(a.name);
    return it != reads.end() && it->second > 0;
  };
  if (bn.target == "torch.ops.aten._native_batch_norm_legit_no_training.default")
    return bn.outputs.size() == 3 && !read(bn.outputs[1]) && !read(bn.outputs[2]);
  if (bn.target == "torch.ops.aten.batch_norm.default") {
    const Argument* training = input_named(bn, "training");
    return bn.outputs.size() == 1 && training && training->kind == Argument::Kind::Bool && !training->bools.empty() &&
           !training->bools[0];
  }
  return false;
}

}  // namespace

bool fold_batch_norm_in_place(ExportedProgram& out, const std::set<std::string>& changing) {
  std::map<std::string, Tensor> state = state_by_placeholder(out);
  // State that may change between or during runs is not arithmetic on constants.
  for (const auto& name : written_placeholders(out)) state.erase(name);
  for (const auto& name : changing) state.erase(name);
  std::map<std::string, int> reads = read_counts(out.graph);
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < out.graph.nodes.size(); ++i)
    for (const auto& o : out.graph.nodes[i].outputs)
      if (o.kind == Argument::Kind::Tensor) producer[o.name] = i;

  std::set<size_t> removed;
  for (size_t i = 0; i < out.graph.nodes.size(); ++i) {
    const Node& bn = out.graph.nodes[i];
    if (!is_inference_batch_norm(bn, reads)) continue;
    const Argument* x = input_named(bn, "input");
    if (!x || x->kind != Argument::Kind::Tensor || !producer.count(x->name) || reads[x->name] != 1) continue;
    Node& conv = out.graph.nodes[producer[x->name]];
    const Argument* transposed = input_named(conv, "transposed");
    if (!is_convolution(conv.target) || (transposed && !transposed->bools.empty() && transposed->bools[0])) continue;
    auto w = state_of(state, input_named(conv, "weight"));
    const Argument* conv_bias = input_named(conv, "bias");
    auto b = state_of(state, conv_bias);
    auto gamma = state_of(state, input_named(bn, "weight"));
    auto beta = state_of(state, input_named(bn, "bias"));
    auto mean = state_of(state, input_named(bn, "running_mean"));
    auto var = state_of(state, input_named(bn, "running_var"));
    bool bias_ok = !conv_bias || conv_bias->kind == Argument::Kind::None || b;
    bool gamma_ok = !input_named(bn, "weight") || input_named(bn, "weight")->kind == Argument::Kind::None || gamma;
    bool beta_ok = !input_named(bn, "bias") || input_named(bn, "bias")->kind == Argument::Kind::None || beta;
    if (!w || !mean || !var || !bias_ok || !gamma_ok || !beta_ok) continue;
    DType dtype = w->dtype();
    bool same_dtype = true;
    for (const auto* t : {&b, &gamma, &beta, &mean, &var})
      if (*t && (*t)->dtype() != dtype) same_dtype = false;
    if (!same_dtype || (dtype != DType::Float32 && dtype != DType::Float64)) continue;
    if (w->dim() < 1 || mean->numel() != w->size(0) || var->numel() != w->size(0)) continue;
    const Argument* eps_arg = input_named(bn, "eps");
    double eps = eps_arg && !eps_arg->floats.empty() ? eps_arg->floats[0] : 1e-5;

    auto [fw, fb] = dtype == DType::Float32 ? folded<float>(*w, b, gamma, beta, *mean, *var, eps)
                                            : folded<double>(*w, b, gamma, beta, *mean, *var, eps);
    std::string conv_name = conv.outputs[0].name;
    std::string base = "folded_" + conv_name;
    for (auto [suffix, tensor] : {std::pair<const char*, Tensor>{"_weight", fw}, {"_bias", fb}}) {
      Argument arg = add_constant_input(out, base + suffix, tensor);
      for (auto& in : conv.inputs)
        if (in.name == (std::string(suffix) == "_weight" ? "weight" : "bias")) in.arg = arg;
      if (std::string(suffix) == "_bias" && !input_named(conv, "bias")) {
        NamedArgument na;
        na.name = "bias";
        na.arg = arg;
        conv.inputs.insert(conv.inputs.begin() + 2, na);
      }
    }
    // The convolution now gives the batch norm's result, under its name.
    std::string bn_out = bn.outputs[0].name;
    out.graph.tensor_values.erase(conv_name);
    conv.outputs[0].name = bn_out;
    removed.insert(i);
  }
  if (removed.empty()) return false;
  std::vector<Node> kept;
  for (size_t i = 0; i < out.graph.nodes.size(); ++i)
    if (!removed.count(i)) kept.push_back(std::move(out.graph.nodes[i]));
  out.graph.nodes = std::move(kept);
  return true;
}

ExportedProgram fold_batch_norm(const ExportedProgram& program, const std::set<std::string>& changing) {
  ExportedProgram out = program;
  fold_batch_norm_in_place(out, changing);
  return out;
}

}  // namespace pt2web
