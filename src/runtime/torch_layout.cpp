#include "runtime/torch_layout.h"

#include <algorithm>
#include <atomic>

#include "ops/views.h"
#include "util/error.h"

namespace pt2web {

namespace {

std::atomic<uint64_t> copies{0};

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
  if (input->strides_checked_first && first.kind == Value::Kind::Tensor &&
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
