#include "runtime/plan/quantized_patterns.h"

#include "runtime/plan/rewrite_helpers.h"

namespace pt2web {

bool is_slot(const ArgSource& a) { return a.kind == ArgSource::Kind::Slot && a.slot >= 0; }

bool int8_dtype_constant(const ArgSource& a) {
  return is_constant(a) && a.constant.kind == Value::Kind::ScalarType &&
         (a.constant.dtype == DType::Int8 || a.constant.dtype == DType::UInt8);
}

bool float32_or_none(const ArgSource& a) {
  return is_constant(a) && (a.constant.is_none() ||
                            (a.constant.kind == Value::Kind::ScalarType && a.constant.dtype == DType::Float32));
}

ArgSource tensor_constant(DType dtype, double value) {
  return constant_arg(Value::from_tensor(Tensor::scalar(dtype, value)));
}

std::set<int> written_slots(const std::vector<PreparedNode>& nodes) {
  std::set<int> out;
  for (const auto& n : nodes)
    for (size_t k = 0; k < n.args.size() && k < n.op->schema.arguments.size(); ++k)
      if (n.op->schema.arguments[k].is_mutable && n.args[k].slot >= 0) out.insert(n.args[k].slot);
  return out;
}

int sole_reader(const std::vector<PreparedNode>& nodes, const std::vector<int>& reads, int slot, size_t after) {
  if (slot < 0 || reads[slot] != 1) return -1;
  for (size_t j = after + 1; j < nodes.size(); ++j) {
    const auto& args = nodes[j].args;
    for (size_t k = 0; k < args.size(); ++k) {
      bool hit = args[k].slot == slot;
      for (int s : args[k].slots) hit = hit || s == slot;
      if (hit) return k == 0 && args[0].kind == ArgSource::Kind::Slot ? static_cast<int>(j) : -1;
    }
  }
  return -1;
}

std::optional<std::vector<double>> constant_qparams(const PreparedNode& n) {
  std::vector<double> out;
  for (size_t k = 1; k <= 4; ++k) {
    if (!is_constant(n.args[k])) return std::nullopt;
    out.push_back(n.args[k].constant.to_double());
  }
  if (!is_constant(n.args[5]) || n.args[5].constant.kind != Value::Kind::ScalarType) return std::nullopt;
  out.push_back(static_cast<double>(n.args[5].constant.dtype));
  return out;
}

std::optional<std::vector<double>> dequantized_constant(const std::vector<PreparedNode>& nodes, int index) {
  if (index < 0 || op_name(nodes[index]) != "quantized_decomposed::dequantize_per_tensor.default") return std::nullopt;
  const PreparedNode& n = nodes[index];
  if (!is_slot(n.args[0]) || !int8_dtype_constant(n.args[5]) || !float32_or_none(n.args[6])) return std::nullopt;
  return constant_qparams(n);
}

void forget_reads(const std::vector<ArgSource>& args, std::vector<int>& reads) {
  for (const auto& a : args) {
    if (a.slot >= 0) --reads[a.slot];
    for (int s : a.slots)
      if (s >= 0) --reads[s];
  }
}

}  // namespace pt2web
