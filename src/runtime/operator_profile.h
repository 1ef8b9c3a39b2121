// OperatorProfile: a NodeObserver that sums node times per operator target,
// for LoadedProgram::run_profiled. A fused node is listed under every target
// it computes: "torch.ops.aten.conv2d.default + batch_norm + hardtanh_", and
// a node a plan-time rewrite gave another operator names the one that runs:
// "torch.ops.aten.linear.default (as pt2web::quantized_linear.default)".
//
// Ownership: owns its totals. Errors: none.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/node_hooks.h"

namespace pt2web {

struct OperatorTime {
  std::string target;
  int calls = 0;
  double ms = 0;
};

class OperatorProfile : public NodeObserver {
 public:
  void node_finished(const PreparedNode& node, double milliseconds) override;
  // Totals per target, slowest first (ties keep target order).
  std::vector<OperatorTime> slowest_first() const;

 private:
  std::map<std::string, OperatorTime> by_target_;
};

}  // namespace pt2web
