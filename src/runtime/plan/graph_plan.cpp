#include "runtime/plan/graph_plan.h"

#include <map>
#include <set>

#include "util/error.h"

namespace pt2web {

std::string node_display_name(const Node& node) {
  for (const auto& o : node.outputs) {
    if (!o.name.empty()) return o.name;
    if (!o.names.empty() && !o.names[0].empty()) return o.names[0];
  }
  return node.target;
}

namespace {

void collect_unsupported(const Graph& graph, std::set<std::string>& missing) {
  const OpTable& table = op_table();
  for (const auto& node : graph.nodes) {
    std::string name = qualified_op_name(node.target);
    if (!table.find(name)) missing.insert(name);
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph) collect_unsupported(*in.arg.graph, missing);
  }
}


// Gives graph values slots while a plan is bound.
struct Binder {
  GraphPlan& plan;
  std::map<std::string, int> slots;

  int slot_for(const std::string& name);
  ArgSource source_for(const Argument& arg, const SchemaArgument* schema_arg, const std::string& where);
};

int Binder::slot_for(const std::string& name) {
  auto it = slots.find(name);
  if (it != slots.end()) return it->second;
  int slot = static_cast<int>(plan.slot_names.size());
  slots[name] = slot;
  plan.slot_names.push_back(name);
  return slot;
}

ArgSource Binder::source_for(const Argument& arg, const SchemaArgument* schema_arg,
                                const std::string& where) {
  ArgSource src;
  auto existing_slot = [&](const std::string& name) {
    auto it = slots.find(name);
    if (it == slots.end())
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

}  // namespace

std::vector<std::string> unsupported_operators(const Graph& graph) {
  std::set<std::string> missing;
  collect_unsupported(graph, missing);
  return {missing.begin(), missing.end()};
}



GraphPlan bind_graph(const Graph& graph) {
  GraphPlan plan;
  plan.graph = &graph;
  Binder binder{plan, {}};
  auto missing = unsupported_operators(graph);
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    fail(ErrorCode::Unsupported, "the program uses ", missing.size(), " operator",
         missing.size() == 1 ? "" : "s", " that pt2web does not support: ", list);
  }
  for (const auto& in : graph.inputs) {
    std::string name = in.name.empty() && !in.names.empty() ? in.names[0] : in.name;
    plan.input_slots.push_back(name.empty() ? -1 : binder.slot_for(name));
  }
  const OpTable& table = op_table();
  for (const auto& node : graph.nodes) {
    PreparedNode prepared;
    prepared.node = &node;
    prepared.op = table.find(qualified_op_name(node.target));
    const OpSchema& schema = prepared.op->schema;
    std::string where = "node '" + node_display_name(node) + "' (" + schema.qualified_name() + ")";
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
      prepared.args[index] = binder.source_for(input.arg, &schema.arguments[index], where);
      bound[index] = true;
    }
    if (variadic) {
      prepared.args[variadic_index] = binder.source_for(gathered, &schema.arguments[variadic_index], where);
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
        for (const auto& n : out.names) targets.push_back(n.empty() ? -1 : binder.slot_for(n));
      } else if (out.kind == Argument::Kind::None) {
        targets.push_back(-1);
      } else {
        std::string name = !out.name.empty() ? out.name : (!out.names.empty() ? out.names[0] : "");
        targets.push_back(name.empty() ? -1 : binder.slot_for(name));
      }
      prepared.outputs.push_back(targets);
    }
    plan.nodes.push_back(std::move(prepared));
  }
  for (const auto& out : graph.outputs) plan.outputs.push_back(binder.source_for(out, nullptr, "graph output"));
  return plan;
}

}  // namespace pt2web
