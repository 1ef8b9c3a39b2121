// batch_norm, layer_norm, group_norm, instance_norm and dropout: the functional Core ATen forms torch's
// run_decompositions gives (ATen's Normalization.cpp composites, then
// functionalization of the running-statistics updates).
#include "passes/decomposition_table.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

std::vector<Argument> optional_tensors(const std::vector<std::string>& names) {
  std::vector<Argument> out;
  for (const auto& n : names) out.push_back(n.empty() ? none_arg() : tensor_arg(n));
  return out;
}

// Per-channel statistics meta ([C] of the input's dtype, or [0] when absent).
TensorMeta channel_meta(const TensorMeta& x, bool empty) {
  return contiguous_meta(x.dtype, {empty ? sym_const(0) : x.sizes.at(1)});
}

bool batch_norm(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "input");
  std::string w = input_tensor(b, node, "weight");
  std::string bias = input_tensor(b, node, "bias");
  // The running statistics as the source names them: writes go to them.
  const Argument* rm_arg = node_input(node, "running_mean");
  const Argument* rv_arg = node_input(node, "running_var");
  std::string rm = input_tensor(b, node, "running_mean");
  std::string rv = input_tensor(b, node, "running_var");
  bool training = input_bool(node, "training", false);
  double momentum = input_float(node, "momentum", 0.1);
  double eps = input_float(node, "eps", 1e-5);
  const TensorMeta& xm = b.meta(x);
  const TensorMeta& out = output_meta(b, node);
  if (xm.sizes.size() < 2) return false;
  auto head = optional_tensors({x, w, bias});
  if (!training && !rm.empty() && !rv.empty()) {
    auto args = head;
    args.insert(args.end(), {tensor_arg(rm), tensor_arg(rv), float_arg(momentum), float_arg(eps)});
    auto outs = b.emit("aten._native_batch_norm_legit_no_training.default", args,
                       {out, channel_meta(xm, true), channel_meta(xm, true)});
    bind_outputs(b, node, {outs[0]});
    return true;
  }
  if (training && !rm.empty() && !rv.empty()) {
    auto args = head;
    args.insert(args.end(), {tensor_arg(rm), tensor_arg(rv), bool_arg(true), float_arg(momentum), float_arg(eps)});
    TensorMeta stat = channel_meta(xm, false);
    auto outs = b.emit("aten._native_batch_norm_legit_functional.default", args,
                       {out, stat, stat, b.meta(rm), b.meta(rv)});
    bind_outputs(b, node, {outs[0]});
    b.mutate(rm_arg->name, outs[3]);
    b.mutate(rv_arg->name, outs[4]);
    return true;
  }
  if (rm.empty() && rv.empty()) {
    auto args = head;
    args.insert(args.end(), {bool_arg(training), float_arg(momentum), float_arg(eps)});
    TensorMeta stat = channel_meta(xm, !training);
    auto outs = b.emit("aten._native_batch_norm_legit.no_stats", args, {out, stat, stat});
    bind_outputs(b, node, {outs[0]});
    return true;
  }
  return false;
}

bool layer_norm(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "input");
  std::vector<int64_t> shape = input_ints(node, "normalized_shape", {});
  std::string w = input_tensor(b, node, "weight");
  std::string bias = input_tensor(b, node, "bias");
  double eps = input_float(node, "eps", 1e-5);
  const TensorMeta& xm = b.meta(x);
  std::vector<SymInt> stat_sizes(xm.sizes.begin(), xm.sizes.end() - static_cast<long>(shape.size()));
  for (size_t i = 0; i < shape.size(); ++i) stat_sizes.push_back(sym_const(1));
  TensorMeta stat = contiguous_meta(xm.dtype == DType::Float16 || xm.dtype == DType::BFloat16 ? DType::Float32 : xm.dtype,
                                    stat_sizes);
  auto args = optional_tensors({x});
  args.push_back(ints_arg(shape));
  auto rest = optional_tensors({w, bias});
  args.insert(args.end(), rest.begin(), rest.end());
  args.push_back(float_arg(eps));
  auto outs = b.emit("aten.native_layer_norm.default", args, {output_meta(b, node), stat, stat});
  bind_outputs(b, node, {outs[0]});
  return true;
}

// group_norm -> native_group_norm(input, weight, bias, N, C, HxW, groups, eps)[0].
bool group_norm(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "input");
  const TensorMeta& xm = b.meta(x);
  if (xm.sizes.size() < 2) return false;
  int64_t hw = 1;
  for (size_t i = 0; i < xm.sizes.size(); ++i)
    if (xm.sizes[i].is_symbolic) return false;  // symbolic N or HxW: keep the node
    else if (i >= 2) hw *= xm.sizes[i].value;
  int64_t groups = input_int(node, "num_groups", 1);
  auto args = optional_tensors({x, input_tensor(b, node, "weight"), input_tensor(b, node, "bias")});
  args.insert(args.end(), {int_arg(xm.sizes[0].value), int_arg(xm.sizes[1].value), int_arg(hw), int_arg(groups),
                           float_arg(input_float(node, "eps", 1e-5))});
  TensorMeta stat = contiguous_meta(xm.dtype, {xm.sizes[0], sym_const(groups)});
  auto outs = b.emit("aten.native_group_norm.default", args, {output_meta(b, node), stat, stat});
  bind_outputs(b, node, {outs[0]});
  return true;
}

// dropout in eval mode is a copy (torch keeps it as clone); training dropout stays.
bool dropout(GraphBuilder& b, const Node& node) {
  if (input_bool(node, "train", false)) return false;
  std::string x = input_tensor(b, node, "input");
  bind_outputs(b, node, {b.emit1("aten.clone.default", {tensor_arg(x)}, output_meta(b, node))});
  return true;
}

// instance_norm with input statistics and no running statistics: the
// batch folded into the channels (weight and bias repeated per sample), a
// batch norm without statistics, a view back (ATen's Normalization.cpp).
bool instance_norm(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "input");
  if (!input_tensor(b, node, "running_mean").empty() || !input_tensor(b, node, "running_var").empty()) return false;
  if (!input_bool(node, "use_input_stats", true)) return false;
  const TensorMeta xm = b.meta(x);
  if (xm.sizes.size() < 2) return false;
  std::string w = input_tensor(b, node, "weight");
  std::string bias = input_tensor(b, node, "bias");
  auto repeated = [&](const std::string& t) {
    if (t.empty()) return t;
    std::vector<SymInt> sizes = {sym_mul(b.meta(t).sizes.at(0), xm.sizes[0])};
    return b.emit1("aten.repeat.default", {tensor_arg(t), b.sym_ints_arg({xm.sizes[0]})},
                   contiguous_meta(b.meta(t).dtype, sizes));
  };
  std::string w_rep = repeated(w);
  std::string b_rep = repeated(bias);
  std::string src = x;
  if (!b.viewable(x))
    src = b.emit1("aten.clone.default", {tensor_arg(x)}, contiguous_meta(xm.dtype, xm.sizes),
                  {{"memory_format", memory_format_arg(kContiguousFormat)}});
  std::vector<SymInt> folded = xm.sizes;
  folded[1] = sym_mul(xm.sizes[0], xm.sizes[1]);
  folded[0] = sym_const(1);
  std::string flat = b.emit1("aten.view.default", {tensor_arg(src), b.sym_ints_arg(folded)}, contiguous_meta(xm.dtype, folded));
  auto args = optional_tensors({flat, w_rep, b_rep});
  args.insert(args.end(), {bool_arg(true), float_arg(input_float(node, "momentum", 0.1)), float_arg(input_float(node, "eps", 1e-5))});
  TensorMeta stat = contiguous_meta(xm.dtype, {folded[1]});
  auto outs = b.emit("aten._native_batch_norm_legit.no_stats", args,
                     {contiguous_meta(xm.dtype, folded), stat, stat});
  bind_outputs(b, node, {b.emit1("aten.view.default", {tensor_arg(outs[0]), b.sym_ints_arg(xm.sizes)}, output_meta(b, node))});
  return true;
}

}  // namespace

void add_normalization_decompositions(DecompositionTable& t) {
  t["aten::batch_norm.default"] = batch_norm;
  t["aten::layer_norm.default"] = layer_norm;
  t["aten::dropout.default"] = dropout;
  t["aten::group_norm.default"] = group_norm;
  t["aten::instance_norm.default"] = instance_norm;
}

}  // namespace pt2web
