#include "runtime/plan/torch_layout_plan.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

#include "ops/views.h"
#include "passes/fx_names.h"
#include "passes/graph_builder.h"

namespace pt2web {

namespace {

// Views that need their input's strides to allow the new shape. When one
// fails on pt2web's layout, its input is copied into torch's and viewed again.
bool needs_compatible_strides(const std::string& qualified) {
  static const std::set<std::string> names = {"view", "_unsafe_view", "view_as", "unflatten", "view_as_complex"};
  return names.count(fx_base_name(qualified)) != 0;
}

// Reads its input's storage with given strides: the storage must be torch's.
bool reads_storage(const std::string& qualified) { return fx_base_name(qualified) == "as_strided"; }

// The argument an aliasing operator's result shares storage with: the one it
// writes (in place or out=), else a view's input. -1 for other operators.
int aliased_argument(const PreparedNode& node) {
  const auto& arguments = node.op->schema.arguments;
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].is_mutable) return static_cast<int>(i);
  return is_view_operator(node.op->schema.qualified_name()) && !arguments.empty() ? 0 : -1;
}

int first_slot(const ArgSource& source) {
  if (source.kind == ArgSource::Kind::Slot) return source.slot;
  return -1;
}

// Sets flags[s] for each tensor slot the argument reads.
void mark_slots(const ArgSource& source, std::vector<bool>& flags) {
  if (source.kind == ArgSource::Kind::Slot && source.slot >= 0) flags[source.slot] = true;
  if (source.kind == ArgSource::Kind::SlotList)
    for (int s : source.slots)
      if (s >= 0) flags[s] = true;
}

// Marks the roots of the values the argument reads as written.
void mark_written(const ArgSource& source, const std::vector<int>& root, std::vector<bool>& written) {
  if (source.kind == ArgSource::Kind::Slot && source.slot >= 0) written[root[source.slot]] = true;
  if (source.kind == ArgSource::Kind::SlotList)
    for (int s : source.slots)
      if (s >= 0) written[root[s]] = true;
}

std::optional<int64_t> known_value(const SymInt& v) {
  if (!v.is_symbolic) return v.value;
  return v.hint;
}

}  // namespace

std::optional<std::vector<int>> recorded_dim_order(const TensorMeta& meta) {
  const size_t rank = meta.sizes.size();
  if (meta.strides.size() != rank) return std::nullopt;
  std::vector<int64_t> sizes(rank), strides(rank);
  for (size_t d = 0; d < rank; ++d) {
    auto size = known_value(meta.sizes[d]);
    auto stride = known_value(meta.strides[d]);
    if (!size || !stride || *size == 0) return std::nullopt;
    sizes[d] = *size;
    strides[d] = *stride;
  }
  std::vector<int> order(rank);
  for (size_t d = 0; d < rank; ++d) order[d] = static_cast<int>(d);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return strides[a] > strides[b]; });
  int64_t expected = 1;
  for (size_t k = rank; k-- > 0;) {
    int d = order[k];
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return std::nullopt;
    expected *= sizes[d];
  }
  return order;
}

void plan_torch_layouts(std::vector<PreparedNode>& nodes, const std::vector<std::string>& slot_names,
                        const Graph& graph) {
  const size_t num_slots = slot_names.size();
  auto recorded_order = [&](int slot) -> std::optional<std::vector<int>> {
    auto meta = graph.tensor_values.find(slot_names[slot]);
    if (meta == graph.tensor_values.end()) return std::nullopt;
    return recorded_dim_order(meta->second);
  };
  // Forwards: the value each slot aliases at the root of its chain of views
  // and in-place writes, and the roots something writes into.
  std::vector<int> root(num_slots);
  std::iota(root.begin(), root.end(), 0);
  std::vector<bool> written(num_slots, false);
  for (const PreparedNode& node : nodes) {
    if (!node.op) continue;
    int aliased = aliased_argument(node);
    int source = aliased >= 0 && aliased < static_cast<int>(node.args.size()) ? first_slot(node.args[aliased]) : -1;
    if (source >= 0)
      for (const auto& out : node.outputs)
        for (int s : out)
          if (s >= 0) root[s] = root[source];
    const auto& arguments = node.op->schema.arguments;
    for (size_t i = 0; i < arguments.size() && i < node.args.size(); ++i) {
      if (arguments[i].is_mutable) mark_written(node.args[i], root, written);
    }
  }
  // A view of a value nothing writes may copy its input when it needs to (a
  // copy then aliases nothing anyone observes). A view of a written value,
  // and as_strided, need the value itself in torch's layout: they mark it.
  std::vector<bool> needed(num_slots, false);
  // Backwards: every reader of a node's outputs comes after it, so a node's
  // outputs are fully marked when it is reached.
  for (size_t i = nodes.size(); i-- > 0;) {
    PreparedNode& node = nodes[i];
    if (!node.op) continue;
    node.torch_layouts.clear();
    const std::string name = node.op->schema.qualified_name();
    int input = node.args.empty() ? -1 : first_slot(node.args[0]);
    if (input >= 0 && (reads_storage(name) || (needs_compatible_strides(name) && written[root[input]]))) {
      needed[input] = true;
    } else if (input >= 0 && needs_compatible_strides(name)) {
      if (auto order = recorded_order(input)) {
        const std::string base = fx_base_name(name);
        node.torch_layouts.push_back({0, 0, true, *order, base == "view" || base == "_unsafe_view"});
      }
    }
    bool output_needed = false;
    for (const auto& out : node.outputs)
      for (int s : out) output_needed = output_needed || (s >= 0 && needed[s]);
    if (!output_needed) continue;
    int aliased = aliased_argument(node);
    if (aliased >= 0 && aliased < static_cast<int>(node.args.size())) mark_slots(node.args[aliased], needed);
    for (size_t k = 0; k < node.outputs.size(); ++k)
      for (size_t e = 0; e < node.outputs[k].size(); ++e) {
        int s = node.outputs[k][e];
        if (s < 0 || !needed[s]) continue;
        if (auto order = recorded_order(s)) node.torch_layouts.push_back({k, e, false, *order});
      }
  }
}

}  // namespace pt2web
