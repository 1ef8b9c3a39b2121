// pad and the reflection / replication pads as torch/_refs writes them:
// mode "constant" is constant_pad_nd; "reflect" and "replicate" gather each
// padded dim, outermost first, through an index computed from an arange
// (reflect: m-1 - |m-1 - |i||; replicate: clamp(i, 0, m-1)) with
// index.Tensor. Circular padding, half-precision inputs (torch computes in
// float32 and casts back) and symbolic padded sizes keep the node.
#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

enum class Mode { Reflect, Replicate };

// The gather index for one dim of size `middle`, padded by left/right.
std::string pad_index(GraphBuilder& b, Mode mode, int64_t left, int64_t middle, int64_t right) {
  std::string i = emit_arange(b, -left, sym_const(middle + right));
  TensorMeta m = b.meta(i);
  if (mode == Mode::Replicate)
    return b.emit1("aten.clamp.default", {tensor_arg(i), int_arg(0), int_arg(middle - 1)}, m);
  std::string inner = b.emit1("aten.abs.default", {tensor_arg(i)}, m);
  inner = b.emit1("aten.sub.Tensor", {int_arg(middle - 1), tensor_arg(inner)}, m);
  inner = b.emit1("aten.abs.default", {tensor_arg(inner)}, m);
  return b.emit1("aten.sub.Tensor", {int_arg(middle - 1), tensor_arg(inner)}, m);
}

bool gather_pad(GraphBuilder& b, const Node& node, const std::string& x, const std::vector<int64_t>& padding, Mode mode) {
  const TensorMeta m = b.meta(x);
  size_t dims = padding.size() / 2;
  if (padding.size() % 2 != 0 || dims == 0 || m.sizes.size() < dims + 1) return false;
  if (m.dtype == DType::Float16 || m.dtype == DType::BFloat16) return false;
  size_t first = m.sizes.size() - dims;
  for (size_t d = first; d < m.sizes.size(); ++d)
    if (m.sizes[d].is_symbolic) return false;
  std::string result = x;
  for (size_t i = 0; i < dims; ++i) {
    int64_t left = padding[2 * (dims - 1 - i)], right = padding[2 * (dims - 1 - i) + 1];
    size_t d = first + i;
    int64_t middle = m.sizes[d].value;
    std::string index = pad_index(b, mode, left, middle, right);
    Argument indices;
    indices.kind = Argument::Kind::OptionalTensors;
    indices.names.assign(m.sizes.size(), "");
    indices.names[d] = index;
    std::vector<SymInt> sizes = b.meta(result).sizes;
    sizes[d] = sym_const(left + middle + right);
    result = b.emit1("aten.index.Tensor", {tensor_arg(result), indices}, contiguous_meta(m.dtype, sizes));
  }
  bind_outputs(b, node, {result});
  return true;
}

bool pad(GraphBuilder& b, const Node& node) {
  const Argument* mode = node_input(node, "mode");
  std::string name = mode && mode->kind == Argument::Kind::String ? mode->str : "constant";
  std::string x = input_tensor(b, node, "self");
  std::vector<int64_t> padding = input_ints(node, "pad", {});
  if (name == "reflect") return gather_pad(b, node, x, padding, Mode::Reflect);
  if (name == "replicate") return gather_pad(b, node, x, padding, Mode::Replicate);
  if (name != "constant") return false;
  std::vector<Argument> args = {tensor_arg(x), ints_arg(padding)};
  const Argument* value = node_input(node, "value");
  if (value && value->kind != Argument::Kind::None) args.push_back(*value);
  bind_outputs(b, node, {b.emit1("aten.constant_pad_nd.default", args, output_meta(b, node))});
  return true;
}

bool reflection_pad(GraphBuilder& b, const Node& node) {
  return gather_pad(b, node, input_tensor(b, node, "self"), input_ints(node, "padding", {}), Mode::Reflect);
}

bool replication_pad(GraphBuilder& b, const Node& node) {
  return gather_pad(b, node, input_tensor(b, node, "self"), input_ints(node, "padding", {}), Mode::Replicate);
}

}  // namespace

void add_padding_decompositions(DecompositionTable& t) {
  t["aten::pad.default"] = pad;
  for (const char* n : {"1", "2", "3"}) {
    t[std::string("aten::reflection_pad") + n + "d.default"] = reflection_pad;
    t[std::string("aten::replication_pad") + n + "d.default"] = replication_pad;
  }
}

}  // namespace pt2web
