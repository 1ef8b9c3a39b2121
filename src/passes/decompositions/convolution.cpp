// conv1d/conv2d/conv3d and conv_transpose: aten::convolution with every
// argument spelled out (aten/src/ATen/native/Convolution.cpp), for batched
// inputs; max_pool2d and adaptive_avg_pool2d (pooling kernels' composites).
#include "passes/decomposition_table.h"
#include "ops/op_utils.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

std::vector<int64_t> expand_param(const Node& node, const std::string& name, int64_t fallback, size_t dims) {
  std::vector<int64_t> v = input_ints(node, name, {fallback});
  if (dims > 1) repeat_single(v, static_cast<size_t>(dims));
  return v;
}

bool convolution(GraphBuilder& b, const Node& node, size_t dims, bool transposed) {
  const Argument* padding = node_input(node, "padding");
  if (padding && padding->kind == Argument::Kind::String) return false;  // padding="same"/"valid"
  std::string x = input_tensor(b, node, "input");
  if (b.meta(x).sizes.size() != dims + 2) return false;  // unbatched inputs go through unsqueeze
  std::string w = input_tensor(b, node, "weight");
  std::string bias = input_tensor(b, node, "bias");
  std::vector<Argument> args = {tensor_arg(x), tensor_arg(w), bias.empty() ? none_arg() : tensor_arg(bias),
                                ints_arg(expand_param(node, "stride", 1, dims)),
                                ints_arg(expand_param(node, "padding", 0, dims)),
                                ints_arg(expand_param(node, "dilation", 1, dims)), bool_arg(transposed),
                                ints_arg(transposed ? expand_param(node, "output_padding", 0, dims)
                                                    : std::vector<int64_t>(dims, 0)),
                                int_arg(input_int(node, "groups", 1))};
  bind_outputs(b, node, {b.emit1("aten.convolution.default", args, output_meta(b, node))});
  return true;
}

bool conv1d(GraphBuilder& b, const Node& n) { return convolution(b, n, 1, false); }
bool conv2d(GraphBuilder& b, const Node& n) { return convolution(b, n, 2, false); }
bool conv3d(GraphBuilder& b, const Node& n) { return convolution(b, n, 3, false); }
bool conv_transpose1d(GraphBuilder& b, const Node& n) { return convolution(b, n, 1, true); }
bool conv_transpose2d(GraphBuilder& b, const Node& n) { return convolution(b, n, 2, true); }
bool conv_transpose3d(GraphBuilder& b, const Node& n) { return convolution(b, n, 3, true); }

// max_pool2d -> max_pool2d_with_indices(...)[0], with the arguments as given.
bool max_pool2d(GraphBuilder& b, const Node& node) {
  std::vector<Argument> args;
  for (const char* name : {"self", "kernel_size", "stride", "padding", "dilation", "ceil_mode"}) {
    const Argument* a = node_input(node, name);
    if (!a) break;
    args.push_back(b.remap(*a));
  }
  const TensorMeta& out = output_meta(b, node);
  auto outs = b.emit("aten.max_pool2d_with_indices.default", args, {out, with_dtype(out, DType::Int64)});
  bind_outputs(b, node, {outs[0]});
  return true;
}

// adaptive_avg_pool2d to 1x1 is a mean over the last two dims (ATen's shortcut).
bool adaptive_avg_pool2d(GraphBuilder& b, const Node& node) {
  std::vector<int64_t> size = input_ints(node, "output_size", {});
  std::string x = input_tensor(b, node, "self");
  if (size == std::vector<int64_t>{1, 1}) {
    bind_outputs(b, node, {b.emit1("aten.mean.dim", {tensor_arg(x), ints_arg({-1, -2}), bool_arg(true)},
                                   output_meta(b, node))});
    return true;
  }
  bind_outputs(b, node, {b.emit1("aten._adaptive_avg_pool2d.default", {tensor_arg(x), ints_arg(size)},
                                 output_meta(b, node))});
  return true;
}

}  // namespace

void add_convolution_decompositions(DecompositionTable& t) {
  t["aten::conv1d.default"] = conv1d;
  t["aten::conv2d.default"] = conv2d;
  t["aten::conv3d.default"] = conv3d;
  t["aten::conv_transpose1d.default"] = conv_transpose1d;
  t["aten::conv_transpose2d.input"] = conv_transpose2d;
  t["aten::conv_transpose3d.input"] = conv_transpose3d;
  t["aten::max_pool2d.default"] = max_pool2d;
  t["aten::adaptive_avg_pool2d.default"] = adaptive_avg_pool2d;
}

}  // namespace pt2web
