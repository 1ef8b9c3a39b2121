#include "runtime/plan/quantized_elementwise_fusion.h"

#include <map>
#include <optional>

#include "ops/op_compose.h"
#include "ops/registry.h"
#include "runtime/plan/rewrite_helpers.h"
#include "runtime/plan/quantized_patterns.h"
#include "util/error.h"

namespace pt2web {

namespace {

// binary(dequantize(a), dequantize(b)) (-> clamp) -> quantize with `base`
// "add" (alpha 1) or "mul", functional or in place, becomes `op`.
void fuse_quantized_binaries(std::vector<PreparedNode>& nodes, std::vector<int>& reads,
                             const std::vector<int>& producer, const std::set<int>& written,
                             std::vector<bool>& removed, const std::string& base, const OpEntry* op) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const PreparedNode& binary = nodes[i];
    // add_ (torchvision's `out += identity`) writes into its first dequantized
    // operand: fine when nothing else reads that float tensor.
    const bool in_place = op_name(binary) == "aten::" + base + "_.Tensor";
    if (removed[i] || (op_name(binary) != "aten::" + base + ".Tensor" && !in_place)) continue;
    const auto& a = binary.args;
    if (!is_slot(a[0]) || !is_slot(a[1])) continue;
    if (base == "add" && (!is_constant(a[2]) || a[2].constant.to_double() != 1.0)) continue;
    if (in_place && reads[a[0].slot] != 1) continue;
    const int dq_a = producer[a[0].slot], dq_b = producer[a[1].slot];
    const auto pa = dequantized_constant(nodes, dq_a), pb = dequantized_constant(nodes, dq_b);
    if (!pa || !pb || (*pa)[4] != (*pb)[4]) continue;
    int q = sole_reader(nodes, reads, first_output(binary), i);
    const int clamp = q;
    const auto bounds = clamp >= 0 ? clamp_bounds(nodes[clamp]) : std::nullopt;
    if (bounds) q = sole_reader(nodes, reads, first_output(nodes[clamp]), static_cast<size_t>(clamp));
    if (q < 0 || op_name(nodes[q]) != "quantized_decomposed::quantize_per_tensor.default" ||
        first_output(nodes[q]) < 0)
      continue;
    const auto pq = constant_qparams(nodes[q]);
    if (!pq || (*pq)[4] != (*pa)[4]) continue;
    const ArgSource& x = nodes[dq_a].args[0];
    const ArgSource& y = nodes[dq_b].args[0];
    if (written.count(x.slot) || written.count(y.slot)) continue;
    const auto& qa = nodes[q].args;
    std::vector<ArgSource> args = {x, y, nodes[dq_a].args[1], nodes[dq_a].args[2], nodes[dq_b].args[1],
                                   nodes[dq_b].args[2], qa[1], qa[2], qa[3], qa[4], qa[5]};
    args.push_back(bounds ? bounds->first : none_source());
    args.push_back(bounds ? bounds->second : none_source());
    PreparedNode replacement;
    replacement.op = op;
    replacement.node = binary.node;
    replacement.outputs = {{first_output(nodes[q])}};
    std::vector<int> absorbed = {q};
    if (bounds) absorbed.insert(absorbed.begin(), clamp);
    for (int j : absorbed) {
      replacement.fused.push_back(nodes[j].node);
      forget_reads(nodes[j].args, reads);
      removed[static_cast<size_t>(j)] = true;
    }
    forget_reads(binary.args, reads);
    for (const auto& arg : args)
      if (arg.slot >= 0) ++reads[arg.slot];
    replacement.args = std::move(args);
    nodes[i] = std::move(replacement);
  }
}

// The nodes computing, elementwise, from one dequantize's float output (and
// constants) the value a single quantize reads: `members` in graph order
// (the slots they read are the dequantize's output or members' outputs), the
// quantize that reads the one member output anything else reads.
struct Region {
  int dequantize = -1, quantize = -1;
  std::vector<int> members;
};

constexpr size_t kMaxRegionNodes = 16;

// Whether node n reads `slot` anywhere.
bool reads_slot(const PreparedNode& n, int slot) {
  for (const auto& a : n.args) {
    if (a.slot == slot) return true;
    for (int s : a.slots)
      if (s == slot) return true;
  }
  return false;
}

std::optional<Region> elementwise_region(const std::vector<PreparedNode>& nodes, const std::vector<int>& reads,
                                         const std::vector<bool>& removed, int dq) {
  Region r;
  r.dequantize = dq;
  const int source = first_output(nodes[dq]);
  if (source < 0) return std::nullopt;
  std::map<int, int> inner_reads = {{source, 0}};  // region slot -> reads by members
  std::set<int> written;                            // region slots members write in place
  for (size_t j = static_cast<size_t>(dq) + 1; j < nodes.size() && r.members.size() < kMaxRegionNodes; ++j) {
    const PreparedNode& n = nodes[j];
    if (removed[j] || !elementwise_ops().count(op_name(n))) continue;
    bool touches = false, only_region = first_output(n) >= 0 && n.outputs.size() == 1;
    for (const auto& a : n.args) {
      if (a.slot >= 0 && inner_reads.count(a.slot)) touches = true;
      else if (a.slot >= 0 || !a.slots.empty() || (is_constant(a) && a.constant.kind == Value::Kind::Tensor))
        only_region = false;  // another tensor: broadcasting, or not a function of this value alone
    }
    if (!touches || !only_region) continue;
    r.members.push_back(static_cast<int>(j));
    for (size_t k = 0; k < n.args.size(); ++k) {
      if (n.args[k].slot < 0) continue;
      ++inner_reads[n.args[k].slot];
      if (k < n.op->schema.arguments.size() && n.op->schema.arguments[k].is_mutable) written.insert(n.args[k].slot);
    }
    inner_reads.emplace(first_output(n), 0);
  }
  if (r.members.empty()) return std::nullopt;
  // Exactly one member value leaves the region, read once, by a quantize.
  int exit = -1;
  for (const auto& [slot, inner] : inner_reads) {
    const int outside = reads[slot] - inner;
    if (outside == 0) continue;
    if (slot == source) {
      if (written.count(source)) return std::nullopt;  // the float value others read would change
      continue;
    }
    if (exit >= 0 || outside != 1) return std::nullopt;
    exit = slot;
  }
  if (exit < 0) return std::nullopt;
  const std::set<int> members(r.members.begin(), r.members.end());
  for (size_t j = static_cast<size_t>(dq) + 1; j < nodes.size() && r.quantize < 0; ++j)
    if (!removed[j] && !members.count(static_cast<int>(j)) && reads_slot(nodes[j], exit))
      r.quantize = static_cast<int>(j);
  if (r.quantize < 0) return std::nullopt;  // a graph output
  const PreparedNode& q = nodes[r.quantize];
  if (op_name(q) != "quantized_decomposed::quantize_per_tensor.default" || q.args[0].slot != exit ||
      !constant_qparams(q) || !int8_dtype_constant(q.args[5]) || first_output(q) < 0)
    return std::nullopt;
  return r;
}

// Node n's arguments as values: slots from `values`, constants as they are.
std::vector<Value> argument_values(const PreparedNode& n, const std::map<int, Value>& values) {
  std::vector<Value> out;
  for (const auto& a : n.args) out.push_back(a.slot >= 0 ? values.at(a.slot) : a.constant);
  return out;
}

// Runs the region's operators on all 256 values of the dequantize's integer
// dtype: entry b for the value whose bit pattern is b.
std::optional<Tensor> lookup_table(const std::vector<PreparedNode>& nodes, const Region& r) {
  const PreparedNode& dq = nodes[r.dequantize];
  Tensor codes = Tensor::uninitialized(dq.args[5].constant.dtype, {256});
  auto* bytes = static_cast<uint8_t*>(codes.raw_data());
  for (int b = 0; b < 256; ++b) bytes[b] = static_cast<uint8_t>(b);
  std::map<int, Value> values = {{dq.args[0].slot, Value::from_tensor(codes)}};
  try {
    values[first_output(dq)] = run_op(op_name(dq), argument_values(dq, values)).at(0);
    for (int j : r.members)
      values[first_output(nodes[j])] = run_op(op_name(nodes[j]), argument_values(nodes[j], values)).at(0);
    Tensor table = run_op1(op_name(nodes[r.quantize]), argument_values(nodes[r.quantize], values)).contiguous();
    if ((table.dtype() != DType::Int8 && table.dtype() != DType::UInt8) || table.sizes() != Shape{256})
      return std::nullopt;
    return table;
  } catch (const Error&) {
    return std::nullopt;
  }
}

void fuse_quantized_lookups(std::vector<PreparedNode>& nodes, std::vector<int>& reads,
                            const std::set<int>& written, std::vector<bool>& removed, const OpEntry* lookup_op) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (removed[i] || !dequantized_constant(nodes, static_cast<int>(i)) || written.count(nodes[i].args[0].slot))
      continue;
    const std::optional<Region> region = elementwise_region(nodes, reads, removed, static_cast<int>(i));
    if (!region) continue;
    const std::optional<Tensor> table = lookup_table(nodes, *region);
    if (!table) continue;
    const ArgSource values = nodes[i].args[0];
    PreparedNode replacement;
    replacement.op = lookup_op;
    replacement.node = nodes[region->members.front()].node;
    replacement.outputs = {{first_output(nodes[region->quantize])}};
    for (size_t k = 1; k < region->members.size(); ++k) replacement.fused.push_back(nodes[region->members[k]].node);
    replacement.fused.push_back(nodes[region->quantize].node);
    for (int j : region->members) {
      forget_reads(nodes[j].args, reads);
      removed[static_cast<size_t>(j)] = true;
    }
    forget_reads(nodes[region->quantize].args, reads);
    replacement.args = {values, constant_arg(Value::from_tensor(*table))};
    ++reads[values.slot];
    nodes[region->quantize] = std::move(replacement);
  }
}

// dequantize(q) -> max_pool2d -> quantize with the dequantize's own
// parameters is max_pool2d on q itself: dequantize is increasing (scale >
// 0), so the window's largest value is the dequantized largest integer, and
// quantizing a dequantized value with the same parameters gives it back.
// The node keeps its operator (pt2web's max_pool2d takes any dtype).
void fuse_integer_max_pools(std::vector<PreparedNode>& nodes, std::vector<int>& reads,
                            const std::vector<int>& producer, const std::set<int>& written,
                            std::vector<bool>& removed) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    PreparedNode& pool = nodes[i];
    if (removed[i] || op_name(pool) != "aten::max_pool2d.default" || pool.args.empty() || !is_slot(pool.args[0]))
      continue;
    const int dq = producer[pool.args[0].slot];
    const auto params = dequantized_constant(nodes, dq);
    if (!params || (*params)[0] <= 0.0 || written.count(nodes[dq].args[0].slot)) continue;
    const int q = sole_reader(nodes, reads, first_output(pool), i);
    if (q < 0 || op_name(nodes[q]) != "quantized_decomposed::quantize_per_tensor.default" ||
        constant_qparams(nodes[q]) != params || first_output(nodes[q]) < 0)
      continue;
    PreparedNode replacement;
    replacement.op = pool.op;
    replacement.node = pool.node;
    replacement.args = pool.args;
    replacement.args[0] = nodes[dq].args[0];
    replacement.outputs = {{first_output(nodes[q])}};
    replacement.fused.push_back(nodes[q].node);
    forget_reads(pool.args, reads);
    forget_reads(nodes[q].args, reads);
    removed[static_cast<size_t>(q)] = true;
    ++reads[replacement.args[0].slot];
    pool = std::move(replacement);
  }
}

}  // namespace

const std::set<std::string>& elementwise_ops() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    for (const char* base : {"abs", "neg", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tanh",
                             "sigmoid", "erf", "relu", "relu6", "hardtanh", "hardswish", "hardsigmoid", "silu",
                             "mish", "gelu", "elu", "celu", "selu", "leaky_relu", "softplus", "clamp", "clamp_min",
                             "clamp_max"}) {
      out.insert(std::string("aten::") + base + ".default");
      out.insert(std::string("aten::") + base + "_.default");
    }
    for (const char* base : {"add", "sub", "mul", "div"})
      for (const char* overload : {".Tensor", ".Scalar"}) {
        out.insert(std::string("aten::") + base + overload);
        out.insert(std::string("aten::") + base + "_" + overload);
      }
    for (const char* name : {"aten::rsub.Scalar", "aten::maximum.default", "aten::minimum.default",
                             "aten::pow.Tensor_Scalar"})
      out.insert(name);
    return out;
  }();
  return names;
}

void fuse_quantized_elementwise(std::vector<PreparedNode>& nodes, std::vector<int>& reads,
                                const std::vector<int>& producer, const std::set<int>& written,
                                std::vector<bool>& removed) {
  for (const std::string base : {"add", "mul"})
    if (const OpEntry* op = op_table().find("pt2web::quantized_" + base + ".default"))
      fuse_quantized_binaries(nodes, reads, producer, written, removed, base, op);
  fuse_integer_max_pools(nodes, reads, producer, written, removed);
  if (const OpEntry* lookup_op = op_table().find("pt2web::quantized_lookup.default"))
    fuse_quantized_lookups(nodes, reads, written, removed, lookup_op);
}

}  // namespace pt2web
