#include "runtime/executor.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "runtime/fusion.h"
#include "runtime/quantized_fusion.h"
#include "runtime/torch_layout.h"
#include "tensor/allocator.h"
#include "util/error.h"
#include "util/stage_times.h"

namespace pt2web {

namespace {

std::string node_label(const Node& node) {
  for (const auto& o : node.outputs) {
    if (!o.name.empty()) return o.name;
    if (!o.names.empty() && !o.names[0].empty()) return o.names[0];
  }
  return node.target;
}

void collect_unsupported(const Graph& graph, std::set<std::string>& missing) {
  const OpTable& table = op_table();
  for (const auto& node : graph.nodes) {
    std::string name = qualified_op_name(node.target);
    if (!table.find(name)) missing.insert(name);
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph) collect_unsupported(*in.arg.graph, missing);
  }
}

}  // namespace

std::vector<std::string> unsupported_operators(const Graph& graph) {
  std::set<std::string> missing;
  collect_unsupported(graph, missing);
  return {missing.begin(), missing.end()};
}

int GraphPlan::slot_for(const std::string& name) {
  auto it = slots_.find(name);
  if (it != slots_.end()) return it->second;
  int slot = static_cast<int>(slot_names_.size());
  slots_[name] = slot;
  slot_names_.push_back(name);
  return slot;
}

ArgSource GraphPlan::source_for(const Argument& arg, const SchemaArgument* schema_arg,
                                const std::string& where) {
  ArgSource src;
  auto existing_slot = [&](const std::string& name) {
    auto it = slots_.find(name);
    if (it == slots_.end())
      fail(ErrorCode::BadProgram, where, " uses '", name, "' before it is defined");
    return it->second;
  };
  using K = Argument::Kind;
  switch (arg.kind) {
    case K::None: break;
    case K::Tensor:
      src.kind = ArgSource::Kind::Slot;
      src.slot = existing_slot(arg.name);
      break;
    case K::Tensors:
    case K::OptionalTensors:
      if (arg.names.empty() && schema_arg && schema_arg->base_type != "Tensor" &&
          schema_arg->base_type != "Any") {
        src.constant = Value::from_ints({});  // an empty list the serializer typed as tensors
        break;
      }
      src.kind = ArgSource::Kind::SlotList;
      src.optional_list = arg.kind == K::OptionalTensors;
      for (const auto& n : arg.names) src.slots.push_back(n.empty() ? -1 : existing_slot(n));
      break;
    case K::Int: src.constant = Value::from_int(arg.ints[0]); break;
    case K::Ints: src.constant = Value::from_ints(arg.ints); break;
    case K::Float: src.constant = Value::from_double(arg.floats[0]); break;
    case K::Floats: src.constant = Value::from_doubles(arg.floats); break;
    case K::Bool: src.constant = Value::from_bool(arg.bools[0]); break;
    case K::Bools: src.constant = Value::from_bools(arg.bools); break;
    case K::String: src.constant = Value::from_string(arg.str); break;
    case K::SymInt:
    case K::SymBool:
    case K::SymFloat:
      if (!arg.names[0].empty()) {
        src.kind = ArgSource::Kind::Slot;
        src.slot = existing_slot(arg.names[0]);
      } else if (arg.kind == K::SymInt) {
        src.constant = Value::from_int(arg.ints[0]);
      } else if (arg.kind == K::SymBool) {
        src.constant = Value::from_bool(arg.bools[0]);
      } else {
        src.constant = Value::from_double(arg.floats[0]);
      }
      break;
    case K::SymInts:
    case K::SymFloats:
    case K::SymBools:
      src.kind = arg.kind == K::SymInts     ? ArgSource::Kind::SymIntList
                 : arg.kind == K::SymFloats ? ArgSource::Kind::SymFloatList
                                            : ArgSource::Kind::SymBoolList;
      for (size_t k = 0; k < arg.names.size(); ++k)
        src.slots.push_back(arg.names[k].empty() ? -1 : existing_slot(arg.names[k]));
      src.ints = arg.ints;
      src.floats = arg.floats;
      break;
    case K::ScalarType: src.constant = Value::from_dtype(arg.dtype); break;
    case K::MemoryFormat:
      src.constant.kind = Value::Kind::MemoryFormat;
      src.constant.i = arg.ints[0];
      break;
    case K::Layout:
      src.constant.kind = Value::Kind::Layout;
      src.constant.i = arg.ints[0];
      break;
    case K::Device:
      src.constant.kind = Value::Kind::Device;
      src.constant.s = arg.str;
      break;
    case K::Graph:
      src.constant.kind = Value::Kind::Graph;
      src.constant.graph = arg.graph.get();
      break;
    case K::Strings:
    case K::CustomObj:
    case K::Operator:
      fail(ErrorCode::Unsupported, where, ": this kind of argument (string lists, custom objects or "
           "operators as arguments) is not supported");
  }
  return src;
}

GraphPlan::GraphPlan(const Graph& graph, const std::set<std::string>& fixed_inputs) : graph_(graph) {
  auto missing = unsupported_operators(graph);
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    fail(ErrorCode::Unsupported, "the program uses ", missing.size(), " operator",
         missing.size() == 1 ? "" : "s", " that pt2web does not support: ", list);
  }
  for (const auto& in : graph.inputs) {
    std::string name = in.name.empty() && !in.names.empty() ? in.names[0] : in.name;
    input_slots_.push_back(name.empty() ? -1 : slot_for(name));
  }
  const OpTable& table = op_table();
  for (const auto& node : graph.nodes) {
    PreparedNode prepared;
    prepared.node = &node;
    prepared.op = table.find(qualified_op_name(node.target));
    const OpSchema& schema = prepared.op->schema;
    std::string where = "node '" + node_label(node) + "' (" + schema.qualified_name() + ")";
    std::vector<bool> bound(schema.arguments.size(), false);
    prepared.args.resize(schema.arguments.size());
    size_t positional = 0;
    const bool variadic = !schema.arguments.empty() && schema.arguments.back().is_variadic;
    const size_t variadic_index = schema.arguments.size() - 1;
    Argument gathered;  // the positional tensors a variadic last argument collects
    gathered.kind = Argument::Kind::Tensors;
    for (const auto& input : node.inputs) {
      int index;
      if (input.name.empty()) {
        index = static_cast<int>(positional++);
      } else {
        index = schema.argument_index(input.name);
      }
      if (variadic && index >= static_cast<int>(variadic_index)) {
        if (input.arg.kind != Argument::Kind::Tensor)
          fail(ErrorCode::Unsupported, where, ": only tensors can be passed as its trailing arguments");
        gathered.names.push_back(input.arg.name);
        continue;
      }
      if (index < 0 || index >= static_cast<int>(schema.arguments.size()))
        fail(ErrorCode::BadProgram, where, " has an argument '", input.name,
             "' that the operator's schema does not have (", schema.text, ")");
      prepared.args[index] = source_for(input.arg, &schema.arguments[index], where);
      bound[index] = true;
    }
    if (variadic) {
      prepared.args[variadic_index] = source_for(gathered, &schema.arguments[variadic_index], where);
      bound[variadic_index] = true;
    }
    for (size_t i = 0; i < schema.arguments.size(); ++i) {
      if (bound[i]) continue;
      const SchemaArgument& a = schema.arguments[i];
      if (a.default_value) {
        prepared.args[i].constant = *a.default_value;
      } else if (!a.is_optional) {
        fail(ErrorCode::BadProgram, where, " is missing the required argument '", a.name, "'");
      }
    }
    for (size_t i = 0; i < schema.arguments.size(); ++i)
      if (schema.arguments[i].is_mutable) prepared.written_args.push_back(static_cast<int>(i));
    for (const auto& out : node.outputs) {
      std::vector<int> targets;
      if (out.kind == Argument::Kind::Tensors || out.kind == Argument::Kind::OptionalTensors) {
        for (const auto& n : out.names) targets.push_back(n.empty() ? -1 : slot_for(n));
      } else if (out.kind == Argument::Kind::None) {
        targets.push_back(-1);
      } else {
        std::string name = !out.name.empty() ? out.name : (!out.names.empty() ? out.names[0] : "");
        targets.push_back(name.empty() ? -1 : slot_for(name));
      }
      prepared.outputs.push_back(targets);
    }
    nodes_.push_back(std::move(prepared));
  }
  for (const auto& out : graph.outputs) outputs_.push_back(source_for(out, nullptr, "graph output"));

  std::set<int> fixed_slots;
  for (const auto& name : fixed_inputs)
    if (auto it = slots_.find(name); it != slots_.end()) fixed_slots.insert(it->second);
  fuse_quantized_products(nodes_, outputs_, slot_names_.size(), graph, fixed_slots);
  fuse_convolution_epilogues(nodes_, outputs_, slot_names_.size());
  plan_torch_layouts(nodes_, slot_names_, graph);

  // Liveness: release each slot after the last node that reads it, unless a
  // graph output needs it.
  std::vector<int> last_use(slot_names_.size(), -1);
  auto mark = [&](const ArgSource& src, int node_index) {
    if (src.slot >= 0) last_use[src.slot] = node_index;
    for (int s : src.slots)
      if (s >= 0) last_use[s] = node_index;
  };
  for (size_t n = 0; n < nodes_.size(); ++n)
    for (const auto& a : nodes_[n].args) mark(a, static_cast<int>(n));
  for (const auto& o : outputs_) mark(o, static_cast<int>(nodes_.size()));
  for (size_t s = 0; s < last_use.size(); ++s)
    if (last_use[s] >= 0 && last_use[s] < static_cast<int>(nodes_.size()))
      nodes_[last_use[s]].release_after.push_back(static_cast<int>(s));
}

Executor::Executor(const Graph& graph, std::set<std::string> fixed_inputs)
    : root_(graph), fixed_inputs_(std::move(fixed_inputs)) {
  plan_for(graph);
}

const GraphPlan& Executor::plan_for(const Graph& graph) {
  auto it = plans_.find(&graph);
  if (it != plans_.end()) return *it->second;
  StageTimer timer("plan graph (kernels, fusion)");
  auto plan = std::make_unique<GraphPlan>(graph, &graph == &root_ ? fixed_inputs_ : std::set<std::string>{});
  // Plans for subgraphs are built now too, so unsupported operators inside
  // branches are reported at load rather than on the first call that takes them.
  for (const auto& node : graph.nodes)
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph) plan_for(*in.arg.graph);
  const GraphPlan& ref = *plan;
  plans_[&graph] = std::move(plan);
  return ref;
}

std::vector<Value> Executor::run(const std::vector<Value>& inputs) { return run_plan(plan_for(root_), inputs); }

std::vector<Value> Executor::run_subgraph(const Graph& graph, const std::vector<Value>& inputs) {
  return run_plan(plan_for(graph), inputs);
}

namespace {

Value materialize(const ArgSource& src, const std::vector<Value>& slots) {
  switch (src.kind) {
    case ArgSource::Kind::Constant: return src.constant;
    case ArgSource::Kind::Slot: return slots[src.slot];
    case ArgSource::Kind::SlotList: {
      Value v;
      v.kind = src.optional_list ? Value::Kind::OptionalTensorList : Value::Kind::TensorList;
      for (int s : src.slots) v.tensors.push_back(s < 0 ? Tensor() : slots[s].tensor);
      return v;
    }
    case ArgSource::Kind::SymIntList: {
      std::vector<int64_t> ints;
      for (size_t k = 0; k < src.slots.size(); ++k)
        ints.push_back(src.slots[k] < 0 ? src.ints[k] : slots[src.slots[k]].to_int());
      return Value::from_ints(ints);
    }
    case ArgSource::Kind::SymFloatList: {
      std::vector<double> ds;
      for (size_t k = 0; k < src.slots.size(); ++k)
        ds.push_back(src.slots[k] < 0 ? src.floats[k] : slots[src.slots[k]].to_double());
      return Value::from_doubles(ds);
    }
    case ArgSource::Kind::SymBoolList: {
      std::vector<bool> bs;
      for (size_t k = 0; k < src.slots.size(); ++k)
        bs.push_back(src.slots[k] < 0 ? src.ints[k] != 0 : slots[src.slots[k]].to_int() != 0);
      return Value::from_bools(bs);
    }
  }
  return Value();
}

}  // namespace

std::vector<Value> Executor::run_plan(const GraphPlan& plan, const std::vector<Value>& inputs) {
  PT2WEB_CHECK(inputs.size() == plan.input_slots().size(), "graph expects ", plan.input_slots().size(),
               " inputs, got ", inputs.size());
  std::vector<Value> slots(plan.num_slots());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (plan.input_slots()[i] >= 0) slots[plan.input_slots()[i]] = inputs[i];
  for (const PreparedNode& node : plan.nodes()) {
    std::vector<Value> args;
    args.reserve(node.args.size());
    for (const auto& src : node.args) args.push_back(materialize(src, slots));
    OpCall call(node.op->schema, std::move(args), this);
    auto start = observer_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    const void* outer_tag = allocation_tag();
    set_allocation_tag(&node);
    try {
      if (write_watcher_ && !node.written_args.empty()) write_watcher_->before_in_place_write(node, call);
      run_with_torch_layouts(node, call);
    } catch (const Error& e) {
      throw Error(e.code(), "while running node '" + node_label(*node.node) + "' (" +
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
  for (const auto& src : plan.outputs()) outputs.push_back(materialize(src, slots));
  return outputs;
}

}  // namespace pt2web
