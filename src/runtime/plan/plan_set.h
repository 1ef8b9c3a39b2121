// PlanSet: the plans of a graph and of every subgraph it passes to
// higher-order operators (cond, while_loop, map, ...), each built by the
// same steps in the same order: bind (runtime/plan/graph_plan.h), rewrite
// (runtime/plan/rewrite_plan.h), liveness (runtime/plan/plan_liveness.h).
// Subgraph plans are built with the root's, so an unsupported operator
// inside a branch is reported at load, not on the first call that takes it.
//
// Ownership: owns its plans; they point into the graphs, which must outlive
// the set. Errors: those of bind_graph.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "runtime/plan/graph_plan.h"
#include "util/step_log.h"

namespace pt2web {

class PlanSet {
 public:
  // Builds the plans of `root` and its subgraphs. `fixed_inputs` names the
  // root's inputs whose values never change (subgraphs get none); `log` (may
  // be null) gets one entry per step, summed over the graphs.
  PlanSet(const Graph& root, const std::set<std::string>& fixed_inputs, StepLog* log);

  const Graph& root() const { return *root_; }
  const GraphPlan& root_plan() const { return *find(*root_); }
  // The plan of `graph`, or null when it is none of this set's graphs.
  const GraphPlan* find(const Graph& graph) const;
  // The plan of `graph`, built now (with no fixed inputs) when the set lacks it.
  const GraphPlan& get_or_build(const Graph& graph);

 private:
  void build(const Graph& graph, const std::set<std::string>& fixed_inputs, StepLog* log);

  const Graph* root_;
  std::map<const Graph*, std::unique_ptr<GraphPlan>> plans_;
};

}  // namespace pt2web
