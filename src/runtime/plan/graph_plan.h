// GraphPlan: a graph made ready to run, as plain data. Every node is resolved
// to its kernel from the op table and its arguments are bound to schema
// positions, with values held in numbered slots. Plan rewrites
// (runtime/plan/rewrite_plan.h) then replace node chains with fused ones,
// and liveness (runtime/plan/plan_liveness.h) marks where each slot is last
// read; the executor (runtime/executor.h) only runs the result.
//
// Ownership: a plan points into its Graph (nodes, subgraphs) and the op
// table; the graph must outlive it.
// Errors: bind_graph throws Error(Unsupported) listing every operator the
// graph (and its subgraphs) uses that has no kernel, and Error(BadProgram)
// for arguments that do not fit an operator's schema.
#pragma once

#include <string>
#include <vector>

#include "ops/registry.h"
#include "ops/value.h"
#include "program/graph.h"

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
  bool strides_checked_first = false;  // view/_unsafe_view: check strides instead of trying the kernel
};

struct PreparedNode {
  const OpEntry* op = nullptr;
  const Node* node = nullptr;
  std::vector<ArgSource> args;            // by schema position
  std::vector<std::vector<int>> outputs;  // per returned value: slot(s) it fills (-1: unused)
  std::vector<int> release_after;         // slots whose last use is this node
  std::vector<int> written_args;          // schema positions written in place ("Tensor(a!)")
  std::vector<const Node*> fused;         // graph nodes this one also computes (runtime/plan/fusion.h)
  std::vector<TorchLayout> torch_layouts; // outputs a later view depends on (runtime/plan/torch_layout_plan.h)
};

struct GraphPlan {
  const Graph* graph = nullptr;
  std::vector<PreparedNode> nodes;
  std::vector<int> input_slots;          // per graph input: its slot (-1: unused)
  std::vector<ArgSource> outputs;        // the graph's outputs
  std::vector<std::string> slot_names;   // the graph value each slot holds
  size_t max_args = 0;                   // the most arguments any node takes (plan_liveness)

  size_t num_slots() const { return slot_names.size(); }
};

// Resolves and binds every node of `graph` (not its subgraphs). Throws as
// described above.
GraphPlan bind_graph(const Graph& graph);

// Collects "aten::foo.default" names a graph and its subgraphs use that the
// op table lacks (sorted, unique).
std::vector<std::string> unsupported_operators(const Graph& graph);

// A node's name for messages: its first output's name, else its target.
std::string node_display_name(const Node& node);

}  // namespace pt2web
