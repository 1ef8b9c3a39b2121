// Factory composites as torch/_refs and torch/_decomp write them: arange(end)
// -> arange.start_step(0, end, layout=strided, ...); zeros / new_zeros ->
// full(size, 0, ...) with the dtype, layout and device spelled out;
// zeros_like / ones_like -> full_like(self, 0|1, ..., memory_format=preserve).
#include "passes/decomposition_table.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

using Kwargs = std::vector<std::pair<std::string, Argument>>;

// The node's tensor-options keyword arguments, as given.
Kwargs given_options(GraphBuilder& b, const Node& node) {
  Kwargs out;
  for (const char* name : {"dtype", "layout", "device", "pin_memory"}) {
    const Argument* a = node_input(node, name);
    if (a && a->kind != Argument::Kind::None) out.emplace_back(name, b.remap(*a));
  }
  return out;
}

void set_option(Kwargs& kwargs, const std::string& name, const Argument& value) {
  for (auto& [k, v] : kwargs)
    if (k == name) {
      v = value;
      return;
    }
  kwargs.emplace_back(name, value);
}

// Keeps dtype, layout, device, pin_memory in schema order.
Kwargs ordered(Kwargs kwargs) {
  Kwargs out;
  for (const char* name : {"dtype", "layout", "device", "pin_memory", "memory_format"})
    for (auto& kv : kwargs)
      if (kv.first == name) out.push_back(kv);
  return out;
}

bool arange_end(GraphBuilder& b, const Node& node) {
  const Argument* end = node_input(node, "end");
  if (!end) return false;
  Kwargs kwargs = given_options(b, node);
  set_option(kwargs, "layout", layout_strided_arg());
  bind_outputs(b, node, {b.emit1("aten.arange.start_step", {int_arg(0), b.remap(*end)}, output_meta(b, node), ordered(kwargs))});
  return true;
}

bool zeros(GraphBuilder& b, const Node& node) {
  const Argument* size = node_input(node, "size");
  if (!size) return false;
  const TensorMeta& out = output_meta(b, node);
  Kwargs kwargs = given_options(b, node);
  set_option(kwargs, "dtype", dtype_arg(out.dtype));
  set_option(kwargs, "layout", layout_strided_arg());
  set_option(kwargs, "device", device_cpu_arg());
  bind_outputs(b, node, {b.emit1("aten.full.default", {b.remap(*size), int_arg(0)}, out, ordered(kwargs))});
  return true;
}

bool filled_like(GraphBuilder& b, const Node& node, int64_t value) {
  std::string x = input_tensor(b, node, "self");
  Kwargs kwargs = given_options(b, node);
  const Argument* format = node_input(node, "memory_format");
  set_option(kwargs, "memory_format",
             format && format->kind != Argument::Kind::None ? *format : memory_format_arg(kPreserveFormat));
  bind_outputs(b, node, {b.emit1("aten.full_like.default", {tensor_arg(x), int_arg(value)}, output_meta(b, node), ordered(kwargs))});
  return true;
}

bool zeros_like(GraphBuilder& b, const Node& node) { return filled_like(b, node, 0); }
bool ones_like(GraphBuilder& b, const Node& node) { return filled_like(b, node, 1); }

}  // namespace

void add_creation_decompositions(DecompositionTable& t) {
  t["aten::arange.default"] = arange_end;
  t["aten::zeros.default"] = zeros;
  t["aten::new_zeros.default"] = zeros;
  t["aten::zeros_like.default"] = zeros_like;
  t["aten::ones_like.default"] = ones_like;
}

}  // namespace pt2web
