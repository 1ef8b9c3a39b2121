// The executor's hooks: an observer told how long each node took (profiling,
// runtime/operator_profile.h) and a watcher told before each node that writes
// an argument in place (runtime/write_journal.h). The executor calls them
// through these interfaces, so neither includes the executor.
//
// Ownership: the executor borrows them; their owner keeps them alive.
// Errors: a watcher may throw (the node then fails unrun).
#pragma once

#include "ops/op_call.h"
#include "runtime/plan/graph_plan.h"

namespace pt2web {

// Called around each node, for profiling.
class NodeObserver {
 public:
  virtual ~NodeObserver() = default;
  virtual void node_finished(const PreparedNode& node, double milliseconds) = 0;
};

// Told before each node that writes one of its arguments in place (the
// node's written_args), with the node's arguments, before the kernel runs
// (runtime/write_journal.h). May throw: the node then fails unrun.
class InPlaceWriteWatcher {
 public:
  virtual ~InPlaceWriteWatcher() = default;
  virtual void before_in_place_write(const PreparedNode& node, const OpCall& call) = 0;
};

}  // namespace pt2web
