#include "runtime/executor.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "runtime/torch_layout.h"
#include "tensor/allocator.h"
#include "util/error.h"

namespace pt2web {

Executor::Executor(PlanSet plans) : plans_(std::move(plans)) {}

Executor::Executor(const Graph& graph, const std::set<std::string>& fixed_inputs)
    : plans_(graph, fixed_inputs, nullptr) {}

std::vector<Value> Executor::run(const std::vector<Value>& inputs) {
  return run_plan(plans_.root_plan(), inputs);  // built with the set
}

std::vector<Value> Executor::run_subgraph(const Graph& graph, const std::vector<Value>& inputs) {
  return run_plan(plans_.get_or_build(graph), inputs);
}

namespace {

// Fills `out` with the list argument `src` gathers from the slots, reusing
// the vectors `out` already holds.
void gather_list(const ArgSource& src, const std::vector<Value>& slots, Value& out) {
  switch (src.kind) {
    case ArgSource::Kind::SlotList:
      out.kind = src.optional_list ? Value::Kind::OptionalTensorList : Value::Kind::TensorList;
      out.tensors.clear();
      for (int s : src.slots) out.tensors.push_back(s < 0 ? Tensor() : slots[s].tensor);
      return;
    case ArgSource::Kind::SymIntList:
      out.kind = Value::Kind::IntList;
      out.ints.clear();
      for (size_t k = 0; k < src.slots.size(); ++k)
        out.ints.push_back(src.slots[k] < 0 ? src.ints[k] : slots[src.slots[k]].to_int());
      return;
    case ArgSource::Kind::SymFloatList:
      out.kind = Value::Kind::DoubleList;
      out.doubles.clear();
      for (size_t k = 0; k < src.slots.size(); ++k)
        out.doubles.push_back(src.slots[k] < 0 ? src.floats[k] : slots[src.slots[k]].to_double());
      return;
    case ArgSource::Kind::SymBoolList:
      out.kind = Value::Kind::BoolList;
      out.bools.clear();
      for (size_t k = 0; k < src.slots.size(); ++k)
        out.bools.push_back(src.slots[k] < 0 ? src.ints[k] != 0 : slots[src.slots[k]].to_int() != 0);
      return;
    case ArgSource::Kind::Constant:
    case ArgSource::Kind::Slot: break;
  }
  fail(ErrorCode::Internal, "gather_list called on a constant or slot argument");
}

// Where argument `src` lives during a node: constants in the plan, single
// values in their slot; lists are gathered into `scratch`.
const Value* argument_in_place(const ArgSource& src, const std::vector<Value>& slots, Value& scratch) {
  if (src.kind == ArgSource::Kind::Constant) return &src.constant;
  if (src.kind == ArgSource::Kind::Slot) return &slots[src.slot];
  gather_list(src, slots, scratch);
  return &scratch;
}

Value materialize(const ArgSource& src, const std::vector<Value>& slots) {
  Value scratch;
  return *argument_in_place(src, slots, scratch);
}

}  // namespace

std::vector<Value> Executor::run_plan(const GraphPlan& plan, const std::vector<Value>& inputs) {
  PT2WEB_CHECK(inputs.size() == plan.input_slots.size(), "graph expects ", plan.input_slots.size(),
               " inputs, got ", inputs.size());
  std::vector<Value> slots(plan.num_slots());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (plan.input_slots[i] >= 0) slots[plan.input_slots[i]] = inputs[i];
  // Arguments are borrowed (OpCall's second constructor): pointers into the
  // plan's constants and the slots, lists gathered into one scratch Value per
  // position whose vectors keep their capacity from node to node.
  std::vector<const Value*> arg_refs(plan.max_args);
  std::vector<Value> gathered(plan.max_args);
  for (const PreparedNode& node : plan.nodes) {
    for (size_t k = 0; k < node.args.size(); ++k)
      arg_refs[k] = argument_in_place(node.args[k], slots, gathered[k]);
    OpCall call(node.op->schema, arg_refs.data(), node.args.size(), this);
    auto start = observer_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    const void* outer_tag = allocation_tag();
    set_allocation_tag(&node);
    try {
      if (write_watcher_ && !node.written_args.empty()) write_watcher_->before_in_place_write(node, call);
      run_with_torch_layouts(node, call);
    } catch (const Error& e) {
      throw Error(e.code(), "while running node '" + node_display_name(*node.node) + "' (" +
                                node.op->schema.qualified_name() + "): " + e.what());
    }
    set_allocation_tag(outer_tag);
    if (observer_) {
      std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
      observer_->node_finished(node, elapsed.count());
    }
    for (size_t k = 0; k < node.outputs.size() && k < call.outputs.size(); ++k) {
      const std::vector<int>& targets = node.outputs[k];
      Value& produced = call.outputs[k];
      if (targets.size() == 1 && produced.kind != Value::Kind::TensorList) {
        if (targets[0] >= 0) slots[targets[0]] = std::move(produced);
      } else {
        for (size_t e = 0; e < targets.size() && e < produced.tensors.size(); ++e)
          if (targets[e] >= 0) slots[targets[e]] = Value::from_tensor(produced.tensors[e]);
      }
    }
    if (call.outputs.size() < node.outputs.size())
      fail(ErrorCode::Internal, node.op->schema.qualified_name(), " produced ", call.outputs.size(),
           " values, the graph expects ", node.outputs.size());
    for (int s : node.release_after) slots[s] = Value();
  }
  std::vector<Value> outputs;
  for (const auto& src : plan.outputs) outputs.push_back(materialize(src, slots));
  return outputs;
}

}  // namespace pt2web
