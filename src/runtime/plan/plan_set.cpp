#include "runtime/plan/plan_set.h"

#include "runtime/plan/plan_liveness.h"
#include "runtime/plan/rewrite_plan.h"

namespace pt2web {

PlanSet::PlanSet(const Graph& root, const std::set<std::string>& fixed_inputs, StepLog* log) : root_(&root) {
  build(root, fixed_inputs, log);
}

const GraphPlan* PlanSet::find(const Graph& graph) const {
  auto it = plans_.find(&graph);
  return it == plans_.end() ? nullptr : it->second.get();
}

const GraphPlan& PlanSet::get_or_build(const Graph& graph) {
  if (const GraphPlan* plan = find(graph)) return *plan;
  build(graph, {}, nullptr);
  return *plans_.at(&graph);
}

void PlanSet::build(const Graph& graph, const std::set<std::string>& fixed_inputs, StepLog* log) {
  if (plans_.count(&graph)) return;
  std::unique_ptr<GraphPlan> plan;
  {
    LoggedStepTimer step(log, "bind nodes to kernels");
    plan = std::make_unique<GraphPlan>(bind_graph(graph));
  }
  rewrite_plan(*plan, fixed_inputs, log);
  {
    LoggedStepTimer step(log, "liveness");
    plan_liveness(*plan);
  }
  plans_[&graph] = std::move(plan);
  for (const auto& node : graph.nodes)
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph) build(*in.arg.graph, {}, log);
}

}  // namespace pt2web
