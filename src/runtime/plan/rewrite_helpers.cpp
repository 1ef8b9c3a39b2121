#include "runtime/plan/rewrite_helpers.h"

#include "ops/registry.h"

namespace pt2web {

std::vector<int> slot_read_counts(const std::vector<PreparedNode>& nodes, const std::vector<ArgSource>& outputs,
                                  size_t num_slots) {
  std::vector<int> reads(num_slots, 0);
  auto count = [&](const ArgSource& src) {
    if (src.slot >= 0) ++reads[src.slot];
    for (int s : src.slots)
      if (s >= 0) ++reads[s];
  };
  for (const auto& node : nodes)
    for (const auto& a : node.args) count(a);
  for (const auto& o : outputs) count(o);
  return reads;
}

std::vector<int> slot_producers(const std::vector<PreparedNode>& nodes, size_t num_slots) {
  std::vector<int> producer(num_slots, -1);
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& out : nodes[i].outputs)
      for (int s : out)
        if (s >= 0) producer[s] = static_cast<int>(i);
  return producer;
}

std::string op_name(const PreparedNode& node) { return node.op->schema.qualified_name(); }

int first_output(const PreparedNode& node) {
  return node.outputs.empty() || node.outputs[0].size() != 1 ? -1 : node.outputs[0][0];
}

bool is_constant(const ArgSource& a) { return a.kind == ArgSource::Kind::Constant; }

ArgSource constant_arg(Value v) {
  ArgSource a;
  a.constant = std::move(v);
  return a;
}

ArgSource none_source() { return constant_arg(Value::none()); }

std::optional<std::pair<ArgSource, ArgSource>> clamp_bounds(const PreparedNode& node) {
  const std::string name = op_name(node);
  if (name == "aten::relu.default" || name == "aten::relu_.default")
    return std::make_pair(constant_arg(Value::from_double(0.0)), none_source());
  if (name == "aten::relu6.default" || name == "aten::relu6_.default")
    return std::make_pair(constant_arg(Value::from_double(0.0)), constant_arg(Value::from_double(6.0)));
  if (name == "aten::hardtanh.default" || name == "aten::hardtanh_.default") {
    const auto& a = node.args;
    if (!is_constant(a[1]) || !is_constant(a[2])) return std::nullopt;
    return std::make_pair(constant_arg(Value::from_double(a[1].constant.to_double())),
                          constant_arg(Value::from_double(a[2].constant.to_double())));
  }
  return std::nullopt;
}

void remove_nodes(std::vector<PreparedNode>& nodes, const std::vector<bool>& removed) {
  std::vector<PreparedNode> kept;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!removed[i]) kept.push_back(std::move(nodes[i]));
  nodes = std::move(kept);
}

}  // namespace pt2web
