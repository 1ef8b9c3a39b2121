#include "runtime/plan/fusion.h"

#include <optional>
#include <string>

#include "ops/registry.h"
#include "runtime/plan/rewrite_helpers.h"

namespace pt2web {

namespace {

// The node right after `from` when it reads `slot` as its argument 0 (and
// nowhere else), or -1. Only adjacent nodes fuse: the fused node runs where
// the convolution ran, so nothing may run in between (an in-place op could
// change the convolution's input, or produce a batch norm parameter).
int next_reader(const std::vector<PreparedNode>& nodes, size_t from, int slot) {
  const size_t j = from + 1;
  if (j >= nodes.size()) return -1;
  const auto& args = nodes[j].args;
  if (args.empty() || args[0].kind != ArgSource::Kind::Slot || args[0].slot != slot) return -1;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k].slot == slot) return -1;
    for (int s : args[k].slots)
      if (s == slot) return -1;
  }
  return static_cast<int>(j);
}

// The convolution arguments in aten::convolution's order, or nullopt for
// nodes that are not a (non-transposed) convolution.
std::optional<std::vector<ArgSource>> convolution_args(const PreparedNode& node) {
  const std::string name = op_name(node);
  const auto& a = node.args;
  if (name == "aten::convolution.default") {
    if (!is_constant(a[6]) || a[6].constant.kind != Value::Kind::Bool || a[6].constant.b) return std::nullopt;
    return std::vector<ArgSource>(a.begin(), a.begin() + 9);
  }
  if (name == "aten::conv1d.default" || name == "aten::conv2d.default" || name == "aten::conv3d.default")
    return std::vector<ArgSource>{a[0], a[1], a[2], a[3], a[4], a[5], constant_arg(Value::from_bool(false)),
                                  constant_arg(Value::from_ints({0})), a[6]};
  return std::nullopt;
}

// Batch norm arguments (weight, bias, mean, var, eps) of an eval-mode batch
// norm whose extra outputs nobody reads, or nullopt.
std::optional<std::vector<ArgSource>> batch_norm_args(const PreparedNode& node, const std::vector<int>& reads) {
  const std::string name = op_name(node);
  const auto& a = node.args;
  if (name == "aten::batch_norm.default") {
    if (!is_constant(a[5]) || a[5].constant.kind != Value::Kind::Bool || a[5].constant.b) return std::nullopt;
    if (!is_constant(a[7])) return std::nullopt;
    return std::vector<ArgSource>{a[1], a[2], a[3], a[4], a[7]};
  }
  if (name == "aten::_native_batch_norm_legit_no_training.default") {
    for (size_t k = 1; k < node.outputs.size(); ++k)
      for (int s : node.outputs[k])
        if (s >= 0 && reads[s] > 0) return std::nullopt;
    if (!is_constant(a[6])) return std::nullopt;
    return std::vector<ArgSource>{a[1], a[2], a[3], a[4], a[6]};
  }
  return std::nullopt;
}

}  // namespace

void fuse_convolution_epilogues(std::vector<PreparedNode>& nodes, const std::vector<ArgSource>& outputs,
                                size_t num_slots) {
  const OpEntry* fused = op_table().find("pt2web::conv_bn_clamp.default");
  if (!fused) return;
  const std::vector<int> reads = slot_read_counts(nodes, outputs, num_slots);
  std::vector<bool> removed(nodes.size(), false);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (removed[i]) continue;
    auto conv = convolution_args(nodes[i]);
    int value = first_output(nodes[i]);
    if (!conv || value < 0) continue;
    std::vector<ArgSource> args = *conv;
    std::vector<size_t> absorbed;
    // conv -> batch norm
    int next = reads[value] == 1 ? next_reader(nodes, i, value) : -1;
    std::optional<std::vector<ArgSource>> bn = next >= 0 ? batch_norm_args(nodes[next], reads) : std::nullopt;
    if (bn && first_output(nodes[next]) >= 0) {
      absorbed.push_back(static_cast<size_t>(next));
      value = first_output(nodes[next]);
      args.insert(args.end(), bn->begin(), bn->end());
      next = reads[value] == 1 ? next_reader(nodes, static_cast<size_t>(next), value) : -1;
    } else {
      args.insert(args.end(), {none_source(), none_source(), none_source(), none_source(), constant_arg(Value::from_double(0.0))});
    }
    // -> clamp
    std::optional<std::pair<ArgSource, ArgSource>> bounds = next >= 0 ? clamp_bounds(nodes[next]) : std::nullopt;
    if (bounds && first_output(nodes[next]) >= 0) {
      absorbed.push_back(static_cast<size_t>(next));
      value = first_output(nodes[next]);
      args.push_back(bounds->first);
      args.push_back(bounds->second);
    } else {
      args.push_back(none_source());
      args.push_back(none_source());
    }
    if (absorbed.empty()) continue;
    PreparedNode replacement;
    replacement.op = fused;
    replacement.node = nodes[i].node;
    replacement.args = std::move(args);
    replacement.outputs = {{value}};
    for (size_t j : absorbed) replacement.fused.push_back(nodes[j].node);
    nodes[i] = std::move(replacement);
    for (size_t j : absorbed) removed[j] = true;
  }
  remove_nodes(nodes, removed);
}

}  // namespace pt2web
