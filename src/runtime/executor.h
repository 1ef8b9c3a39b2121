// Executor: runs a Graph. Every node is resolved to a kernel from the op
// table when the plan is built (once per graph); running is a loop over the
// prepared calls, with values held in numbered slots that are released after
// their last use so intermediate memory is returned as early as possible.
//
// Errors: building a plan throws Error(Unsupported) listing every operator
// the graph (and its subgraphs) uses that has no kernel, and
// Error(BadProgram) for arguments that do not fit an operator's schema.
// Running rethrows kernel errors with the node's name and target prefixed.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ops/registry.h"
#include "program/graph.h"
#include "ops/value.h"

namespace pt2web {

// Where a prepared argument comes from at run time.
struct ArgSource {
  enum class Kind { Constant, Slot, SlotList, SymIntList, SymFloatList, SymBoolList };
  Kind kind = Kind::Constant;
  Value constant;
  int slot = -1;
  std::vector<int> slots;          // -1 = None (lists) or a constant from `ints`/`floats`
  std::vector<int64_t> ints;
  std::vector<double> floats;
  bool optional_list = false;
};

// A value that must have torch's recorded memory layout (runtime/torch_layout.h),
// dense in dimension `order` (outermost first): `element` of returned value
// `output`, or (`input`) the view's first argument when the view fails on pt2web's.
struct TorchLayout {
  size_t output = 0;
  size_t element = 0;
  bool input = false;
  std::vector<int> order;
};

struct PreparedNode {
  const OpEntry* op = nullptr;
  const Node* node = nullptr;
  std::vector<ArgSource> args;            // by schema position
  std::vector<std::vector<int>> outputs;  // per returned value: slot(s) it fills (-1: unused)
  std::vector<int> release_after;         // slots whose last use is this node
  std::vector<int> written_args;          // schema positions written in place ("Tensor(a!)")
  std::vector<const Node*> fused;         // graph nodes this one also computes (runtime/fusion.h)
  std::vector<TorchLayout> torch_layouts; // outputs a later view depends on (runtime/torch_layout.h)
};

class GraphPlan {
 public:
  // Resolves every node. Throws as described above. `fixed_inputs`: names of
  // the graph's inputs whose values never change (parameters, constants).
  explicit GraphPlan(const Graph& graph, const std::set<std::string>& fixed_inputs = {});

  const Graph& graph() const { return graph_; }
  const std::vector<PreparedNode>& nodes() const { return nodes_; }
  const std::vector<int>& input_slots() const { return input_slots_; }
  const std::vector<ArgSource>& outputs() const { return outputs_; }
  size_t num_slots() const { return slot_names_.size(); }
  const std::string& slot_name(int slot) const { return slot_names_[slot]; }

 private:
  int slot_for(const std::string& name);
  ArgSource source_for(const Argument& arg, const SchemaArgument* schema_arg, const std::string& where);

  const Graph& graph_;
  std::map<std::string, int> slots_;
  std::vector<std::string> slot_names_;
  std::vector<int> input_slots_;
  std::vector<PreparedNode> nodes_;
  std::vector<ArgSource> outputs_;
};

// Collects "aten::foo.default" names a graph and its subgraphs use that the
// op table lacks (sorted, unique).
std::vector<std::string> unsupported_operators(const Graph& graph);

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

class Executor : public SubgraphRunner {
 public:
  // `fixed_inputs`: the root graph's inputs whose values never change (GraphPlan).
  explicit Executor(const Graph& graph, std::set<std::string> fixed_inputs = {});

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
  const GraphPlan& plan_for(const Graph& graph);

  std::map<const Graph*, std::unique_ptr<GraphPlan>> plans_;
  const Graph& root_;
  std::set<std::string> fixed_inputs_;
  NodeObserver* observer_ = nullptr;
  InPlaceWriteWatcher* write_watcher_ = nullptr;
  RandomSource random_;
};

}  // namespace pt2web
