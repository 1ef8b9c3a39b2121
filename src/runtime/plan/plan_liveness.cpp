#include "runtime/plan/plan_liveness.h"

#include <algorithm>

namespace pt2web {

void plan_liveness(GraphPlan& plan) {
  std::vector<PreparedNode>& nodes = plan.nodes;
  std::vector<int> last_use(plan.num_slots(), -1);
  auto mark = [&](const ArgSource& src, int node_index) {
    if (src.slot >= 0) last_use[src.slot] = node_index;
    for (int s : src.slots)
      if (s >= 0) last_use[s] = node_index;
  };
  for (size_t n = 0; n < nodes.size(); ++n)
    for (const auto& a : nodes[n].args) mark(a, static_cast<int>(n));
  for (const auto& o : plan.outputs) mark(o, static_cast<int>(nodes.size()));
  for (auto& node : nodes) node.release_after.clear();
  for (size_t s = 0; s < last_use.size(); ++s)
    if (last_use[s] >= 0 && last_use[s] < static_cast<int>(nodes.size()))
      nodes[last_use[s]].release_after.push_back(static_cast<int>(s));
  plan.max_args = 0;
  for (const auto& node : nodes) plan.max_args = std::max(plan.max_args, node.args.size());
}

}  // namespace pt2web
