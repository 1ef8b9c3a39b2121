#include "runtime/plan/grouped_attention_plan.h"

#include <optional>
#include <string>
#include <vector>

#include "runtime/plan/rewrite_helpers.h"

namespace pt2web {

namespace {

// The concrete sizes the graph records for the value in `slot`, or nullopt.
std::optional<std::vector<int64_t>> concrete_sizes(const GraphPlan& plan, int slot) {
  if (slot < 0 || static_cast<size_t>(slot) >= plan.slot_names.size()) return std::nullopt;
  auto it = plan.graph->tensor_values.find(plan.slot_names[static_cast<size_t>(slot)]);
  if (it == plan.graph->tensor_values.end()) return std::nullopt;
  std::vector<int64_t> sizes;
  for (const SymInt& s : it->second.sizes) {
    if (s.is_symbolic) return std::nullopt;
    sizes.push_back(s.value);
  }
  return sizes;
}

bool is_slot(const ArgSource& a) { return a.kind == ArgSource::Kind::Slot && a.slot >= 0; }

struct RepeatedHeads {
  int source_slot = -1;      // the key or value before repetition, [B, Hk, S, E]
  int64_t heads = 0;         // Hk * g, what the attention saw
  std::vector<int> nodes;    // unsqueeze, expand, reshape
};

// The unsqueeze -> expand -> reshape chain that wrote `slot` (each value
// read once), or nullopt.
std::optional<RepeatedHeads> repeated_heads(const GraphPlan& plan, const std::vector<int>& producers,
                                            const std::vector<int>& reads, int slot) {
  auto producer_of = [&](int s, const char* op) -> int {
    if (s < 0 || reads[static_cast<size_t>(s)] != 1) return -1;
    const int n = producers[static_cast<size_t>(s)];
    if (n < 0 || op_name(plan.nodes[static_cast<size_t>(n)]) != op) return -1;
    const PreparedNode& node = plan.nodes[static_cast<size_t>(n)];
    return node.args.empty() || !is_slot(node.args[0]) ? -1 : n;
  };
  const int reshape = producer_of(slot, "aten::reshape.default");
  if (reshape < 0) return std::nullopt;
  const int expanded = plan.nodes[static_cast<size_t>(reshape)].args[0].slot;
  const int expand = producer_of(expanded, "aten::expand.default");
  if (expand < 0) return std::nullopt;
  const int unsqueezed = plan.nodes[static_cast<size_t>(expand)].args[0].slot;
  const int unsqueeze = producer_of(unsqueezed, "aten::unsqueeze.default");
  if (unsqueeze < 0) return std::nullopt;
  const PreparedNode& u = plan.nodes[static_cast<size_t>(unsqueeze)];
  const int source = u.args[0].slot;
  const auto x = concrete_sizes(plan, source), e = concrete_sizes(plan, expanded), r = concrete_sizes(plan, slot);
  if (!x || !e || !r || x->size() != 4 || e->size() != 5 || r->size() != 4) return std::nullopt;
  if (!is_constant(u.args[1]) || u.args[1].constant.kind != Value::Kind::Int) return std::nullopt;
  const int64_t dim = u.args[1].constant.i;
  if (dim != 2 && dim != -3) return std::nullopt;
  const auto& xs = *x;
  const auto& es = *e;
  const auto& rs = *r;
  const int64_t group = es[2];
  if (group < 1 || es[0] != xs[0] || es[1] != xs[1] || es[3] != xs[2] || es[4] != xs[3]) return std::nullopt;
  if (rs[0] != xs[0] || rs[1] != xs[1] * group || rs[2] != xs[2] || rs[3] != xs[3]) return std::nullopt;
  return RepeatedHeads{source, rs[1], {unsqueeze, expand, reshape}};
}

}  // namespace

int read_grouped_kv_in_place(GraphPlan& plan) {
  const std::vector<int> reads = slot_read_counts(plan.nodes, plan.outputs, plan.num_slots());
  const std::vector<int> producers = slot_producers(plan.nodes, plan.num_slots());
  std::vector<bool> removed(plan.nodes.size(), false);
  int rewritten = 0;
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    PreparedNode& attention = plan.nodes[i];
    if (op_name(attention) != "aten::scaled_dot_product_attention.default" || attention.args.size() < 8) continue;
    if (!is_slot(attention.args[0]) || !is_slot(attention.args[1]) || !is_slot(attention.args[2])) continue;
    const auto key = repeated_heads(plan, producers, reads, attention.args[1].slot);
    const auto value = repeated_heads(plan, producers, reads, attention.args[2].slot);
    const auto query = concrete_sizes(plan, attention.args[0].slot);
    if (!key || !value || !query || query->size() != 4 || (*query)[1] != key->heads || key->heads != value->heads)
      continue;
    // Nothing may write in place between the chains and the attention.
    int first = static_cast<int>(i);
    for (int n : key->nodes) first = std::min(first, n);
    for (int n : value->nodes) first = std::min(first, n);
    bool writes_between = false;
    for (size_t n = static_cast<size_t>(first); n < i; ++n) writes_between |= !plan.nodes[n].written_args.empty();
    if (writes_between) continue;
    attention.args[1].slot = key->source_slot;
    attention.args[2].slot = value->source_slot;
    attention.args[7] = constant_arg(Value::from_bool(true));
    for (const auto* chain : {&*key, &*value})
      for (int n : chain->nodes) {
        removed[static_cast<size_t>(n)] = true;
        attention.fused.push_back(plan.nodes[static_cast<size_t>(n)].node);
      }
    ++rewritten;
  }
  if (rewritten > 0) remove_nodes(plan.nodes, removed);
  return rewritten;
}

}  // namespace pt2web
