#include "runtime/plan/quantized_fusion.h"

#include <optional>
#include <set>
#include <string>

#include "ops/registry.h"
#include "runtime/plan/rewrite_helpers.h"
#include "runtime/plan/quantized_elementwise_fusion.h"
#include "runtime/plan/quantized_patterns.h"

namespace pt2web {

namespace {

// A dequantize node's integer input and parameters as the fused node takes them.
struct Dequantized {
  ArgSource values, scale, zero_point;
  int node = -1;
};

// dequantize_per_tensor (.default: numbers, .tensor: 1-element tensors) of int8/uint8 values.
std::optional<Dequantized> per_tensor_source(const std::vector<PreparedNode>& nodes, int index) {
  if (index < 0) return std::nullopt;
  const PreparedNode& n = nodes[index];
  const std::string name = op_name(n);
  const auto& a = n.args;
  if (name != "quantized_decomposed::dequantize_per_tensor.default" &&
      name != "quantized_decomposed::dequantize_per_tensor.tensor")
    return std::nullopt;
  if (!is_slot(a[0]) || !int8_dtype_constant(a[5]) || !float32_or_none(a[6])) return std::nullopt;
  Dequantized d;
  d.values = a[0];
  d.node = index;
  if (name == "quantized_decomposed::dequantize_per_tensor.tensor") {
    d.scale = a[1];
    d.zero_point = a[2];
  } else {
    if (!is_constant(a[1]) || !is_constant(a[2])) return std::nullopt;
    d.scale = tensor_constant(DType::Float64, a[1].constant.to_double());
    d.zero_point = tensor_constant(DType::Int64, a[2].constant.to_double());
  }
  return d;
}

// A weight: dequantize_per_channel along axis 0, or a per-tensor dequantize.
std::optional<Dequantized> weight_source(const std::vector<PreparedNode>& nodes, int index) {
  if (index < 0) return std::nullopt;
  const PreparedNode& n = nodes[index];
  if (op_name(n) != "quantized_decomposed::dequantize_per_channel.default") return per_tensor_source(nodes, index);
  const auto& a = n.args;
  if (!is_slot(a[0]) || !is_constant(a[3]) || a[3].constant.kind != Value::Kind::Int || a[3].constant.i != 0 ||
      !int8_dtype_constant(a[6]) || !float32_or_none(a[7]))
    return std::nullopt;
  return Dequantized{a[0], a[1], a[2], index};
}

// The graph meta of a slot's value, when known.
const TensorMeta* meta_of(const Graph& graph, const std::string& name) {
  auto it = graph.tensor_values.find(name);
  return it == graph.tensor_values.end() ? nullptr : &it->second;
}

struct Product {
  bool conv = false;
  int input_slot = -1, weight_slot = -1;
  ArgSource bias;
  std::vector<ArgSource> conv_geometry;  // stride, padding, dilation, groups
  int permute_node = -1;                 // addmm's permuted weight
};

bool int_list_of_two(const ArgSource& a) {
  return is_constant(a) && a.constant.kind == Value::Kind::IntList && a.constant.ints.size() == 2;
}

// The rank the graph records for a node's tensor argument `arg` (-1: unknown).
int64_t argument_rank(const Graph& graph, const Node& node, const std::string& arg) {
  for (const auto& in : node.inputs)
    if (in.name == arg && in.arg.kind == Argument::Kind::Tensor) {
      const TensorMeta* meta = meta_of(graph, in.arg.name);
      return meta ? static_cast<int64_t>(meta->sizes.size()) : -1;
    }
  return -1;
}

std::optional<Product> product_of(const std::vector<PreparedNode>& nodes, int index, const std::vector<int>& producer,
                                  const Graph& graph) {
  const PreparedNode& n = nodes[index];
  const std::string name = op_name(n);
  const auto& a = n.args;
  Product p;
  if (name == "aten::linear.default") {
    p.input_slot = a[0].slot;
    p.weight_slot = a[1].slot;
    p.bias = a[2];
  } else if (name == "aten::addmm.default") {
    // addmm(bias, x, permute(w, [1, 0])) with beta = alpha = 1 and a 1-d bias is linear(x, w, bias).
    for (size_t k : {size_t(3), size_t(4)})
      if (!is_constant(a[k]) || a[k].constant.to_double() != 1.0) return std::nullopt;
    if (!is_slot(a[0]) || !is_slot(a[2])) return std::nullopt;
    if (argument_rank(graph, *n.node, "self") != 1) return std::nullopt;
    const int perm = producer[a[2].slot];
    if (perm < 0 || op_name(nodes[perm]) != "aten::permute.default") return std::nullopt;
    const auto& pa = nodes[perm].args;
    if (!is_constant(pa[1]) || pa[1].constant.ints != std::vector<int64_t>{1, 0}) return std::nullopt;
    p.input_slot = a[1].slot;
    p.weight_slot = pa[0].slot;
    p.bias = a[0];
    p.permute_node = perm;
  } else if (name == "aten::conv2d.default") {
    p.conv = true;
    p.input_slot = a[0].slot;
    p.weight_slot = a[1].slot;
    p.bias = a[2];
    p.conv_geometry = {a[3], a[4], a[5], a[6]};
  } else if (name == "aten::convolution.default") {
    if (!is_constant(a[6]) || a[6].constant.kind != Value::Kind::Bool || a[6].constant.b) return std::nullopt;
    if (!int_list_of_two(a[3])) return std::nullopt;  // 2-d only
    p.conv = true;
    p.input_slot = a[0].slot;
    p.weight_slot = a[1].slot;
    p.bias = a[2];
    p.conv_geometry = {a[3], a[4], a[5], a[8]};
  } else {
    return std::nullopt;
  }
  if (p.input_slot < 0 || p.weight_slot < 0) return std::nullopt;
  if (p.conv && !int_list_of_two(p.conv_geometry[0])) return std::nullopt;
  return p;
}

// quantize_per_tensor.default with constant parameters into int8/uint8: its
// (scale, zero point, qmin, qmax, dtype) as the fused node's trailing arguments.
std::optional<std::vector<ArgSource>> output_quantization(const PreparedNode& n) {
  if (op_name(n) != "quantized_decomposed::quantize_per_tensor.default") return std::nullopt;
  const auto& a = n.args;
  for (size_t k = 1; k <= 4; ++k)
    if (!is_constant(a[k])) return std::nullopt;
  if (!int8_dtype_constant(a[5])) return std::nullopt;
  return std::vector<ArgSource>{tensor_constant(DType::Float64, a[1].constant.to_double()),
                                tensor_constant(DType::Int64, a[2].constant.to_double()), a[3], a[4], a[5]};
}

// XNNPACKQuantizer quantizes a clamp after a convolution on its own, with
// the same parameters: q1 = quantize(y), then quantize(clamp(dequantize(q1))).
// With equal parameters dequantize then quantize gives q1 back, and values
// outside the bounds become the bounds' quantized values either way, so the
// chain equals quantize(clamp(y)): the clamp joins the product's epilogue.
// `args` ends with the absorbed quantize's five arguments; the clamp bounds
// sit just before them.
void absorb_requantized_clamp(const std::vector<PreparedNode>& nodes, const std::vector<int>& reads,
                              const PreparedNode& quantize, std::vector<ArgSource>& args,
                              std::vector<size_t>& absorbed, int& value) {
  const auto params = constant_qparams(quantize);
  const int dq = sole_reader(nodes, reads, value, absorbed.back());
  if (!params || dq < 0 || op_name(nodes[dq]) != "quantized_decomposed::dequantize_per_tensor.default" ||
      constant_qparams(nodes[dq]) != params || !float32_or_none(nodes[dq].args[6]))
    return;
  const int clamp = sole_reader(nodes, reads, first_output(nodes[dq]), static_cast<size_t>(dq));
  auto bounds = clamp >= 0 ? clamp_bounds(nodes[clamp]) : std::nullopt;
  if (!bounds) return;
  const int requant = sole_reader(nodes, reads, first_output(nodes[clamp]), static_cast<size_t>(clamp));
  if (requant < 0 || op_name(nodes[requant]) != "quantized_decomposed::quantize_per_tensor.default" ||
      constant_qparams(nodes[requant]) != params || first_output(nodes[requant]) < 0)
    return;
  args[args.size() - 7] = bounds->first;
  args[args.size() - 6] = bounds->second;
  for (int j : {dq, clamp, requant}) absorbed.push_back(static_cast<size_t>(j));
  value = first_output(nodes[requant]);
}

bool pure_and_unread(const PreparedNode& n, const std::vector<int>& reads) {
  const std::string name = op_name(n);
  const bool pure = name.rfind("quantized_decomposed::dequantize", 0) == 0 || name == "aten::permute.default";
  if (!pure) return false;
  for (const auto& out : n.outputs)
    for (int s : out)
      if (s >= 0 && reads[s] > 0) return false;
  return true;
}

}  // namespace

void fuse_quantized_products(std::vector<PreparedNode>& nodes, const std::vector<ArgSource>& outputs,
                             size_t num_slots, const Graph& graph, const std::set<int>& fixed_slots) {
  const OpEntry* linear_op = op_table().find("pt2web::quantized_linear.default");
  const OpEntry* conv_op = op_table().find("pt2web::quantized_conv2d.default");
  if (!linear_op || !conv_op) return;
  std::vector<int> reads = slot_read_counts(nodes, outputs, num_slots);
  const std::vector<int> producer = slot_producers(nodes, num_slots);
  const std::set<int> written = written_slots(nodes);
  std::vector<bool> removed(nodes.size(), false);
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::optional<Product> p = product_of(nodes, static_cast<int>(i), producer, graph);
    if (!p) continue;
    std::optional<Dequantized> x = per_tensor_source(nodes, producer[p->input_slot]);
    std::optional<Dequantized> w = weight_source(nodes, producer[p->weight_slot]);
    if (!x || !w) continue;
    bool touched = false;
    for (const ArgSource* a : {&x->values, &x->scale, &x->zero_point, &w->values, &w->scale, &w->zero_point})
      touched = touched || (a->slot >= 0 && written.count(a->slot));
    if (touched) continue;
    std::vector<ArgSource> args = {x->values, w->values};
    if (p->conv) args.insert(args.end(), p->conv_geometry.begin(), p->conv_geometry.end());
    args.insert(args.end(), {x->scale, x->zero_point, w->scale, w->zero_point, p->bias});
    // -> clamp -> quantize
    std::vector<size_t> absorbed;
    int value = first_output(nodes[i]);
    int next = sole_reader(nodes, reads, value, i);
    auto bounds = next >= 0 ? clamp_bounds(nodes[next]) : std::nullopt;
    if (bounds && first_output(nodes[next]) >= 0) {
      absorbed.push_back(static_cast<size_t>(next));
      value = first_output(nodes[next]);
      args.push_back(bounds->first);
      args.push_back(bounds->second);
      next = sole_reader(nodes, reads, value, static_cast<size_t>(next));
    } else {
      args.push_back(none_source());
      args.push_back(none_source());
    }
    auto quant = next >= 0 ? output_quantization(nodes[next]) : std::nullopt;
    if (quant && first_output(nodes[next]) >= 0) {
      absorbed.push_back(static_cast<size_t>(next));
      value = first_output(nodes[next]);
      args.insert(args.end(), quant->begin(), quant->end());
      if (!bounds) absorb_requantized_clamp(nodes, reads, nodes[next], args, absorbed, value);
    } else {
      args.insert(args.end(), {none_source(), none_source(), constant_arg(Value::from_int(-128)),
                               constant_arg(Value::from_int(127)), none_source()});
    }
    if (value < 0) continue;
    args.push_back(constant_arg(Value::from_bool(fixed_slots.count(w->values.slot) > 0)));
    PreparedNode replacement;
    replacement.op = p->conv ? conv_op : linear_op;
    replacement.node = nodes[i].node;
    replacement.outputs = {{value}};
    for (size_t j : absorbed) {
      replacement.fused.push_back(nodes[j].node);
      forget_reads(nodes[j].args, reads);
      removed[j] = true;
    }
    forget_reads(nodes[i].args, reads);
    for (const auto& a : args)
      if (a.slot >= 0) ++reads[a.slot];
    replacement.args = std::move(args);
    nodes[i] = std::move(replacement);
  }
  fuse_quantized_elementwise(nodes, reads, producer, written, removed);
  // Dequantize and permute nodes whose values nobody reads any more, last first
  // so that a permute's dequantize follows it out.
  for (size_t i = nodes.size(); i-- > 0;)
    if (!removed[i] && pure_and_unread(nodes[i], reads)) {
      removed[i] = true;
      forget_reads(nodes[i].args, reads);
    }
  remove_nodes(nodes, removed);
}

}  // namespace pt2web
