// Executor: runs the plans of a graph and its subgraphs (runtime/plan/plan_set.h).
// Running is a loop over the prepared calls, with values held in numbered
// slots that are released after their last use, so intermediate memory is
// returned as early as possible. Arguments are borrowed, never copied: each
// node's call points at its slots and at the plan's constants.
//
// Ownership: owns its PlanSet; the graphs must outlive it.
// Errors: constructing from a graph throws what building its plans throws
// (runtime/plan/graph_plan.h). Running rethrows kernel errors with the
// node's name and target prefixed.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ops/op_call.h"
#include "ops/value.h"
#include "program/graph.h"
#include "runtime/node_hooks.h"
#include "runtime/plan/plan_set.h"

namespace pt2web {

class Executor : public SubgraphRunner {
 public:
  // Runs plans built beforehand (the prepare pipeline's).
  explicit Executor(PlanSet plans);
  // Builds the plans of `graph` itself; `fixed_inputs`: the graph's inputs
  // whose values never change (runtime/plan/rewrite_plan.h).
  explicit Executor(const Graph& graph, const std::set<std::string>& fixed_inputs = {});

  // Runs the graph on its placeholder values; returns its output values.
  std::vector<Value> run(const std::vector<Value>& inputs);
  std::vector<Value> run_subgraph(const Graph& graph, const std::vector<Value>& inputs) override;

  // The random operators' source: reseeded by set_random_seed (0 at start).
  RandomSource& random_source() override { return random_; }
  void set_random_seed(uint64_t seed) { random_.reseed(seed); }

  void set_observer(NodeObserver* observer) { observer_ = observer; }
  // Watches in-place writes in this graph and its subgraphs (nullptr: none).
  void set_write_watcher(InPlaceWriteWatcher* watcher) { write_watcher_ = watcher; }

 private:
  std::vector<Value> run_plan(const GraphPlan& plan, const std::vector<Value>& inputs);

  PlanSet plans_;
  NodeObserver* observer_ = nullptr;
  InPlaceWriteWatcher* write_watcher_ = nullptr;
  RandomSource random_;
};

}  // namespace pt2web
