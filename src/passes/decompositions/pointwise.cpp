// Arithmetic composites as torch/_refs writes them: square -> pow(x, 2);
// floor_divide -> div(rounding_mode="floor"); addcmul -> self + value*t1*t2;
// lerp with a scalar weight -> the two-sided form torch uses for accuracy;
// stack -> cat then view (or unsqueeze each, stacking after the last dim).
#include "passes/decomposition_table.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

Argument string_arg(const std::string& s) {
  Argument a;
  a.kind = Argument::Kind::String;
  a.str = s;
  return a;
}

bool square(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  bind_outputs(b, node, {b.emit1("aten.pow.Tensor_Scalar", {tensor_arg(x), int_arg(2)}, output_meta(b, node))});
  return true;
}

bool floor_divide(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  const Argument* other = node_input(node, "other");
  if (!other) return false;
  bind_outputs(b, node, {b.emit1("aten.div.Tensor_mode", {tensor_arg(x), b.remap(*other)}, output_meta(b, node),
                                 {{"rounding_mode", string_arg("floor")}})});
  return true;
}

bool addcmul(GraphBuilder& b, const Node& node) {
  std::string self = input_tensor(b, node, "self");
  std::string t1 = input_tensor(b, node, "tensor1");
  std::string t2 = input_tensor(b, node, "tensor2");
  const Argument* value = node_input(node, "value");
  const TensorMeta& out = output_meta(b, node);
  std::string product = t1;
  if (value && !(value->kind == Argument::Kind::Int && value->ints[0] == 1))
    product = b.emit1("aten.mul.Tensor", {tensor_arg(t1), *value}, out);
  product = b.emit1("aten.mul.Tensor", {tensor_arg(product), tensor_arg(t2)}, out);
  bind_outputs(b, node, {b.emit1("aten.add.Tensor", {tensor_arg(self), tensor_arg(product)}, out)});
  return true;
}

bool lerp_scalar(GraphBuilder& b, const Node& node) {
  std::string start = input_tensor(b, node, "self");
  std::string end = input_tensor(b, node, "end");
  const Argument* weight = node_input(node, "weight");
  if (!weight) return false;
  const TensorMeta& out = output_meta(b, node);
  TensorMeta scalar = contiguous_meta(out.dtype, {});
  Argument layout, device;
  layout.kind = Argument::Kind::Layout;
  layout.ints = {7};
  device.kind = Argument::Kind::Device;
  device.str = "cpu";
  std::string w = b.emit1("aten.full.default", {ints_arg({}), *weight}, scalar,
                          {{"dtype", dtype_arg(out.dtype)}, {"layout", layout}, {"device", device}, {"pin_memory", bool_arg(false)}});
  std::string magnitude = b.emit1("aten.abs.default", {tensor_arg(w)}, scalar);
  std::string mask = b.emit1("aten.ge.Scalar", {tensor_arg(magnitude), float_arg(0.5)}, with_dtype(scalar, DType::Bool));
  std::string w_minus_1 = b.emit1("aten.sub.Tensor", {tensor_arg(w), int_arg(1)}, scalar);
  std::string coeff = b.emit1("aten.where.self", {tensor_arg(mask), tensor_arg(w_minus_1), tensor_arg(w)}, scalar);
  std::string base = b.emit1("aten.where.self", {tensor_arg(mask), tensor_arg(end), tensor_arg(start)}, out);
  std::string diff = b.emit1("aten.sub.Tensor", {tensor_arg(end), tensor_arg(start)}, out);
  std::string scaled = b.emit1("aten.mul.Tensor", {tensor_arg(coeff), tensor_arg(diff)}, out);
  bind_outputs(b, node, {b.emit1("aten.add.Tensor", {tensor_arg(scaled), tensor_arg(base)}, out)});
  return true;
}

bool stack(GraphBuilder& b, const Node& node) {
  const Argument* tensors = node_input(node, "tensors");
  if (!tensors || tensors->kind != Argument::Kind::Tensors || tensors->names.empty()) return false;
  Argument inputs = b.remap(*tensors);
  const TensorMeta& first = b.meta(inputs.names[0]);
  for (const auto& n : inputs.names)
    if (b.meta(n).sizes.size() != first.sizes.size()) return false;
  size_t rank = first.sizes.size();
  int64_t dim = wrap_dim(input_int(node, "dim", 0), rank + 1);
  const TensorMeta& out = output_meta(b, node);
  std::vector<Argument> cat_args = {inputs};
  if (dim != 0) cat_args.push_back(int_arg(dim));
  if (dim < static_cast<int64_t>(rank)) {
    std::vector<SymInt> cat_sizes = first.sizes;
    cat_sizes[dim] = sym_const(0);
    for (const auto& n : inputs.names) {
      const SymInt& s = b.meta(n).sizes[dim];
      if (s.is_symbolic || cat_sizes[dim].is_symbolic) return false;
      cat_sizes[dim].value += s.value;
    }
    std::string cat = b.emit1("aten.cat.default", cat_args, contiguous_meta(out.dtype, cat_sizes));
    bind_outputs(b, node, {b.emit1("aten.view.default", {tensor_arg(cat), b.sym_ints_arg(out.sizes)}, out)});
    return true;
  }
  Argument unsqueezed;
  unsqueezed.kind = Argument::Kind::Tensors;
  for (const auto& n : inputs.names)
    unsqueezed.names.push_back(b.emit1("aten.unsqueeze.default", {tensor_arg(n), int_arg(dim)}, unsqueezed_meta(b.meta(n), dim)));
  cat_args[0] = unsqueezed;
  bind_outputs(b, node, {b.emit1("aten.cat.default", cat_args, out)});
  return true;
}

}  // namespace

void add_pointwise_decompositions(DecompositionTable& t) {
  t["aten::square.default"] = square;
  t["aten::floor_divide.default"] = floor_divide;
  t["aten::addcmul.default"] = addcmul;
  t["aten::lerp.Scalar"] = lerp_scalar;
  t["aten::stack.default"] = stack;
}

}  // namespace pt2web
