#include "runtime/operator_profile.h"

#include <algorithm>

#include "ops/registry.h"

namespace pt2web {

namespace {

// "torch.ops.aten.batch_norm.default" -> "batch_norm",
// "torch.ops.quantized_decomposed.quantize_per_tensor.default" -> "quantized_decomposed.quantize_per_tensor";
// other targets ("_operator.getitem") as they are.
std::string short_target(const std::string& target) {
  const std::string ops = "torch.ops.", aten = "torch.ops.aten.";
  if (target.rfind(ops, 0) != 0) return target;
  const std::string name = target.substr(target.rfind(aten, 0) == 0 ? aten.size() : ops.size());
  return name.substr(0, name.rfind('.'));  // without the overload
}

}  // namespace

void OperatorProfile::node_finished(const PreparedNode& node, double milliseconds) {
  std::string target = node.node->target;
  for (const Node* fused : node.fused) target += " + " + short_target(fused->target);
  // A plan-time rewrite may run another operator than the graph's (a dynamic
  // quantized linear layer keeps its aten.linear node but runs pt2web's).
  const std::string runs = node.op->schema.qualified_name();
  if (runs != qualified_op_name(node.node->target)) target += " (as " + runs + ")";
  OperatorTime& entry = by_target_[target];
  entry.target = target;
  entry.calls += 1;
  entry.ms += milliseconds;
}

std::vector<OperatorTime> OperatorProfile::slowest_first() const {
  std::vector<OperatorTime> rows;
  for (const auto& [target, entry] : by_target_) rows.push_back(entry);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
  return rows;
}

}  // namespace pt2web
