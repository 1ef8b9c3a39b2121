#include "runtime/torch_layout.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <set>
#include <string>

#include "ops/views.h"
#include "passes/fx_names.h"
#include "passes/graph_builder.h"
#include "util/error.h"

namespace pt2web {

namespace {

std::atomic<uint64_t> copies{0};

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

bool overlaps(const Storage& a, const Storage& b) {
  return a.data() < b.data() + b.nbytes() && b.data() < a.data() + a.nbytes();
}

bool shares_storage_with_arguments(const Tensor& t, const OpCall& call) {
  auto same = [&](const Tensor& a) { return a.defined() && overlaps(*a.storage(), *t.storage()); };
  for (size_t i = 0; i < call.num_args(); ++i) {
    const Value& v = call.arg(i);
    if (v.kind == Value::Kind::Tensor && same(v.tensor)) return true;
    if (v.kind == Value::Kind::TensorList || v.kind == Value::Kind::OptionalTensorList)
      for (const Tensor& a : v.tensors)
        if (same(a)) return true;
  }
  return false;
}

Tensor* output_tensor(OpCall& call, const TorchLayout& layout) {
  if (layout.output >= call.outputs.size()) return nullptr;
  Value& v = call.outputs[layout.output];
  if (v.kind == Value::Kind::Tensor && layout.element == 0) return &v.tensor;
  if ((v.kind == Value::Kind::TensorList || v.kind == Value::Kind::OptionalTensorList) &&
      layout.element < v.tensors.size())
    return &v.tensors[layout.element];
  return nullptr;
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

bool has_dim_order(const Tensor& t, const std::vector<int>& order) {
  if (static_cast<int64_t>(order.size()) != t.dim() || t.numel() == 0) return true;
  int64_t expected = 1;
  for (size_t k = order.size(); k-- > 0;) {
    int d = order[k];
    if (t.sizes()[d] == 1) continue;
    if (t.strides()[d] != expected) return false;
    expected *= t.sizes()[d];
  }
  return true;
}

Tensor copy_in_dim_order(const Tensor& t, const std::vector<int>& order) {
  Shape strides(t.sizes().size());
  int64_t running = 1;
  for (size_t k = order.size(); k-- > 0;) {
    strides[order[k]] = running;
    running *= std::max<int64_t>(t.sizes()[order[k]], 1);
  }
  auto storage = Storage::allocate(static_cast<size_t>(t.numel()) * element_size(t.dtype()), false);
  Tensor out(storage, t.dtype(), t.sizes(), strides, 0);
  out.copy_from(t);
  return out;
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
      if (auto order = recorded_order(input)) node.torch_layouts.push_back({0, 0, true, *order});
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

namespace {

// Runs the node's kernel; a view that fails on pt2web's layout of its input
// runs again on a copy of it in torch's layout.
void run_kernel(const PreparedNode& node, OpCall& call) {
  const TorchLayout* input = nullptr;
  for (const TorchLayout& layout : node.torch_layouts)
    if (layout.input) input = &layout;
  if (!input) return node.op->kernel(call);
  const Value& first = call.arg(0);
  auto run_on_copy = [&] {
    std::vector<Value> args;
    for (size_t i = 0; i < call.num_args(); ++i) args.push_back(call.arg(i));
    args[0] = Value::from_tensor(copy_in_dim_order(first.tensor, input->order));
    copies.fetch_add(1, std::memory_order_relaxed);
    OpCall again(call.schema(), std::move(args), &call.runner());
    node.op->kernel(again);
    call.outputs = std::move(again.outputs);
  };
  // view and _unsafe_view are checked before running (the usual case, with no
  // exception thrown on every call); the other views by running them.
  const std::string base = fx_base_name(call.schema().qualified_name());
  if ((base == "view" || base == "_unsafe_view") && first.kind == Value::Kind::Tensor &&
      call.arg(1).kind == Value::Kind::IntList) {
    if (strides_allow_view(first.tensor, call.arg(1).ints) || has_dim_order(first.tensor, input->order))
      return node.op->kernel(call);
    return run_on_copy();
  }
  try {
    node.op->kernel(call);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::BadInput || first.kind != Value::Kind::Tensor ||
        has_dim_order(first.tensor, input->order))
      throw;
    run_on_copy();
  }
}

}  // namespace

void run_with_torch_layouts(const PreparedNode& node, OpCall& call) {
  run_kernel(node, call);
  for (const TorchLayout& layout : node.torch_layouts) {
    if (layout.input) continue;
    Tensor* t = output_tensor(call, layout);
    if (!t || !t->defined() || has_dim_order(*t, layout.order)) continue;
    // A result that shares storage with an argument is a view or an in-place
    // write: copying it would break the aliasing, and its layout follows its
    // argument's, which this pass already gave torch's layout.
    if (shares_storage_with_arguments(*t, call)) continue;
    *t = copy_in_dim_order(*t, layout.order);
    copies.fetch_add(1, std::memory_order_relaxed);
  }
}

uint64_t torch_layout_copies() { return copies.load(std::memory_order_relaxed); }

}  // namespace pt2web
