#include "runtime/describe.h"

#include <cmath>
#include <map>
#include <set>

#include "ops/registry.h"
#include "util/error.h"

namespace pt2web {

namespace {

using json = nlohmann::json;

// JavaScript numbers hold integers exactly only up to 2^53; larger ones
// (torch's "unbounded" sentinels) are written as strings so nothing is rounded.
json int_json(int64_t v) {
  const int64_t safe = (int64_t{1} << 53) - 1;
  if (v > safe || v < -safe) return std::to_string(v);
  return v;
}

// JSON has no NaN or infinity; write them the way the fixtures do.
json float_json(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return d;
}

json range_json(const RangeConstraint& r) {
  return json::array({r.min_val ? int_json(*r.min_val) : json(nullptr),
                      r.max_val ? int_json(*r.max_val) : json(nullptr)});
}

json archive_json(const ArchiveLayout* layout) {
  if (!layout) return nullptr;
  json entries = json::array();
  for (const auto& [name, size] : layout->entries)
    entries.push_back({{"name", name}, {"size", int_json(static_cast<int64_t>(size))}});
  return {{"kind", layout->kind}, {"program_entry", layout->program_entry}, {"models", layout->models},
          {"entries", entries}};
}

// The value's name for display: tensors and sym values by name, constants empty.
std::string argument_name(const Argument& a) {
  if (!a.name.empty()) return a.name;
  if (!a.names.empty()) return a.names[0];
  return "";
}

// A constant argument (specialized input, constant output) as {type, value}.
json constant_json(const Argument& a) {
  using K = Argument::Kind;
  switch (a.kind) {
    case K::None: return {{"type", "none"}, {"value", nullptr}};
    case K::Int:
    case K::SymInt: return {{"type", "int"}, {"value", int_json(a.ints.empty() ? 0 : a.ints[0])}};
    case K::Float:
    case K::SymFloat: return {{"type", "float"}, {"value", float_json(a.floats.empty() ? 0 : a.floats[0])}};
    case K::Bool:
    case K::SymBool: return {{"type", "bool"}, {"value", !a.bools.empty() && a.bools[0]}};
    case K::String: return {{"type", "str"}, {"value", a.str}};
    default: return {{"type", "other"}, {"value", nullptr}};
  }
}

bool is_symbolic_scalar(const Argument& a) {
  using K = Argument::Kind;
  return (a.kind == K::SymInt || a.kind == K::SymFloat || a.kind == K::SymBool) &&
         !a.names.empty() && !a.names[0].empty();
}

const char* symbolic_scalar_kind(const Argument& a) {
  switch (a.kind) {
    case Argument::Kind::SymFloat: return "float";
    case Argument::Kind::SymBool: return "bool";
    default: return "int";
  }
}

// The guards torch recorded, as its failure message prints them.
json guards_json(const ExportedProgram& program) {
  json out = json::array();
  for (const Guard& g : program.guards) out.push_back(guard_text(g));
  return out;
}

// Adds the range of every symbol in `expr` to `ranges`.
void add_ranges(const ExportedProgram& program, const SymExpr& expr, json& ranges) {
  for (const auto& symbol : expr.symbols()) {
    auto it = program.range_constraints.find(symbol);
    ranges[symbol] = it == program.range_constraints.end()
                         ? json::array({nullptr, nullptr})
                         : range_json(it->second);
  }
}

// {dtype, shape, ranges} of a tensor value of `graph`.
json tensor_json(const ExportedProgram& program, const Graph& graph, const std::string& name) {
  json out = {{"kind", "tensor"}, {"dtype", nullptr}, {"shape", nullptr}, {"ranges", json::object()}};
  auto it = graph.tensor_values.find(name);
  if (it == graph.tensor_values.end()) return out;
  const TensorMeta& meta = it->second;
  out["dtype"] = dtype_name(meta.dtype);
  json shape = json::array();
  for (const SymInt& size : meta.sizes) {
    if (size.is_symbolic && size.expr) {
      shape.push_back(size.to_string());
      add_ranges(program, *size.expr, out["ranges"]);
    } else {
      shape.push_back(int_json(size.value));
    }
  }
  out["shape"] = shape;
  return out;
}

// A symbolic scalar input or output: its kind, its expression and ranges.
json sym_scalar_json(const ExportedProgram& program, const Argument& a) {
  json out = {{"kind", symbolic_scalar_kind(a)}, {"ranges", json::object()}};
  const Graph& graph = program.graph;
  const auto& values = a.kind == Argument::Kind::SymFloat  ? graph.sym_float_values
                       : a.kind == Argument::Kind::SymBool ? graph.sym_bool_values
                                                           : graph.sym_int_values;
  auto it = values.find(a.names[0]);
  if (it != values.end() && it->second.is_symbolic && it->second.expr) {
    out["symbol"] = it->second.to_string();
    add_ranges(program, *it->second.expr, out["ranges"]);
  }
  return out;
}

// One user input or output value, by its argument.
json value_json(const ExportedProgram& program, const Argument& a, bool specialized) {
  if (!specialized && a.kind == Argument::Kind::Tensor) return tensor_json(program, program.graph, a.name);
  if (!specialized && is_symbolic_scalar(a)) return sym_scalar_json(program, a);
  json c = constant_json(a);
  return {{"kind", "constant"}, {"type", c["type"]}, {"value", c["value"]}};
}

json inputs_json(const ExportedProgram& program) {
  std::vector<std::string> paths = program.call_signature().in_spec.leaf_paths();
  json inputs = json::array();
  size_t leaf = 0;
  for (const auto& spec : program.signature.input_specs) {
    if (spec.kind != InputKind::UserInput) continue;
    json entry = value_json(program, spec.arg, spec.is_constant_input);
    entry["path"] = leaf < paths.size() ? paths[leaf] : "";
    entry["name"] = argument_name(spec.arg);
    inputs.push_back(entry);
    ++leaf;
  }
  return inputs;
}

json outputs_json(const ExportedProgram& program) {
  std::vector<std::string> paths = program.call_signature().out_spec.leaf_paths(false);
  json outputs = json::array();
  size_t leaf = 0;
  for (const auto& spec : program.signature.output_specs) {
    if (spec.kind != OutputKind::UserOutput && spec.kind != OutputKind::LossOutput) continue;
    json entry = value_json(program, spec.arg, false);
    entry["path"] = leaf < paths.size() ? paths[leaf] : "";
    ++leaf;
    entry["name"] = argument_name(spec.arg);
    entry["loss"] = spec.kind == OutputKind::LossOutput;
    outputs.push_back(entry);
  }
  return outputs;
}

json optional_string(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json signature_json(const GraphSignature& sig) {
  json input_specs = json::array();
  for (const auto& s : sig.input_specs) {
    json spec = {{"kind", input_kind_name(s.kind)},
                 {"arg", argument_name(s.arg)},
                 {"target", optional_string(s.target)},
                 {"persistent", s.persistent ? json(*s.persistent) : json(nullptr)}};
    if (s.is_constant_input) spec["value"] = constant_json(s.arg)["value"];
    input_specs.push_back(spec);
  }
  json output_specs = json::array();
  for (const auto& s : sig.output_specs)
    output_specs.push_back({{"kind", output_kind_name(s.kind)},
                            {"arg", argument_name(s.arg)},
                            {"target", optional_string(s.target)}});
  json out = {
      {"input_specs", input_specs},
      {"output_specs", output_specs},
      {"parameters", sig.parameters()},
      {"buffers", sig.buffers()},
      {"non_persistent_buffers", sig.non_persistent_buffers()},
      {"lifted_tensor_constants", sig.lifted_tensor_constants()},
      {"lifted_custom_objs", sig.lifted_custom_objs()},
      {"user_inputs", sig.user_inputs()},
      {"user_outputs", sig.user_outputs()},
      {"inputs_to_parameters", sig.inputs_to_parameters()},
      {"inputs_to_buffers", sig.inputs_to_buffers()},
      {"inputs_to_lifted_tensor_constants", sig.inputs_to_lifted_tensor_constants()},
      {"buffers_to_mutate", sig.buffers_to_mutate()},
      {"user_inputs_to_mutate", sig.user_inputs_to_mutate()},
      {"backward_signature", nullptr},
      {"assertion_dep_token", nullptr},
  };
  if (auto b = sig.backward_signature())
    out["backward_signature"] = {{"gradients_to_parameters", b->gradients_to_parameters},
                                 {"gradients_to_user_inputs", b->gradients_to_user_inputs},
                                 {"loss_output", b->loss_output}};
  if (auto token = sig.assertion_dep_token()) out["assertion_dep_token"] = *token;
  return out;
}

// The tensor stored under `name` in the state dict or the constants, if any.
const Tensor* stored_tensor(const ExportedProgram& program, const std::string& name) {
  auto s = program.state_dict.find(name);
  if (s != program.state_dict.end()) return &s->second;
  auto c = program.constants.find(name);
  if (c != program.constants.end() && c->second.kind == PyValue::Kind::Tensor) return &c->second.tensor;
  return nullptr;
}

json totals_json(const ExportedProgram& program, const std::vector<std::string>& names) {
  int64_t bytes = 0;
  for (const auto& name : names)
    if (const Tensor* t = stored_tensor(program, name)) bytes += static_cast<int64_t>(t->nbytes());
  return {{"count", names.size()}, {"bytes", int_json(bytes)}};
}

// Every stored tensor's name, kind, dtype and shape, in signature order.
void list_tensors(const ExportedProgram& program, const std::vector<std::string>& names, const char* kind,
                  json& out) {
  for (const auto& name : names)
    if (const Tensor* t = stored_tensor(program, name))
      out.push_back({{"name", name}, {"kind", kind}, {"dtype", dtype_name(t->dtype())}, {"shape", t->sizes()}});
}

json state_json(const ExportedProgram& program) {
  const GraphSignature& sig = program.signature;
  json tensors = json::array();
  list_tensors(program, sig.parameters(), "parameter", tensors);
  list_tensors(program, sig.buffers(), "buffer", tensors);
  list_tensors(program, sig.lifted_tensor_constants(), "constant", tensors);
  return {{"parameters", totals_json(program, sig.parameters())},
          {"buffers", totals_json(program, sig.buffers())},
          {"constants", totals_json(program, sig.lifted_tensor_constants())},
          {"tensors", tensors}};
}

void count_operators(const Graph& graph, std::map<std::string, int64_t>& counts) {
  for (const auto& node : graph.nodes) {
    ++counts[node.target];
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph && in.arg.graph) count_operators(*in.arg.graph, counts);
  }
}

json operators_json(const Graph& graph) {
  std::map<std::string, int64_t> counts;
  count_operators(graph, counts);
  const OpTable& table = op_table();
  json out = json::array();
  for (const auto& [target, count] : counts) {
    std::string qualified = qualified_op_name(target);
    out.push_back({{"target", target},
                   {"qualified", qualified},
                   {"count", count},
                   {"supported", table.find(qualified) != nullptr}});
  }
  return out;
}

json range_constraints_json(const ExportedProgram& program) {
  json out = json::object();
  for (const auto& [symbol, range] : program.range_constraints) out[symbol] = range_json(range);
  return out;
}

json prepare_json(const StepLog* steps) {
  if (!steps) return nullptr;
  json out = json::array();
  for (const LoggedStep& step : steps->steps())
    out.push_back({{"step", step.name}, {"detail", step.detail}});
  return out;
}

}  // namespace

nlohmann::json describe_program(const ExportedProgram& program, const ArchiveLayout* layout,
                                DescribeOptions options) {
  const ModuleCallSignature& call = program.call_signature();
  json out = {
      {"archive", archive_json(layout)},
      {"schema_version", {{"major", program.schema_version.major}, {"minor", program.schema_version.minor}}},
      {"torch_version", program.torch_version},
      {"dialect", program.dialect},
      {"inputs", inputs_json(program)},
      {"outputs", outputs_json(program)},
      {"signature", signature_json(program.signature)},
      {"state", state_json(program)},
      {"range_constraints", range_constraints_json(program)},
      {"guards", guards_json(program)},
      {"in_spec", call.in_spec.to_string()},
      {"out_spec", call.out_spec.to_string()},
      {"operators", operators_json(program.graph)},
  };
  out["prepare"] = prepare_json(options.prepare_steps);
  if (options.printed) out["printed"] = print_program(program);
  return out;
}

}  // namespace pt2web
