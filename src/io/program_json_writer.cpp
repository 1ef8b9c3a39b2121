#include "io/program_json_writer.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "util/error.h"

namespace pt2web {

using json = nlohmann::json;

int64_t dtype_to_serialized(DType dtype) {
  for (int64_t code : {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 28, 29, 30})
    if (dtype_from_serialized(code) == dtype) return code;
  fail(ErrorCode::Unsupported, "dtype ", dtype_name(dtype), " has no export schema code");
}

namespace {

std::string call(const std::string& fn, const std::vector<std::shared_ptr<const SymExpr>>& args) {
  std::string s = fn + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + sympy_srepr(*args[i]);
  return s + ")";
}

}  // namespace

std::string sympy_srepr(const SymExpr& e) {
  using Op = SymExpr::Op;
  switch (e.op()) {
    case Op::Integer: return "Integer(" + std::to_string(e.value()) + ")";
    case Op::Rational: return "Rational(" + std::to_string(e.value()) + ", " + std::to_string(e.denominator()) + ")";
    case Op::Symbol:
      // Size symbols (s0, s1, ...) are positive; unbacked ones (u0) only integer.
      return "Symbol('" + e.name() + "'" + (e.name().rfind("s", 0) == 0 ? ", positive=True" : "") + ", integer=True)";
    case Op::Add: return call("Add", e.args());
    case Op::Mul: return call("Mul", e.args());
    case Op::Pow: return call("Pow", e.args());
    case Op::Neg: return "Mul(Integer(-1), " + sympy_srepr(*e.args()[0]) + ")";
    case Op::FloorDiv: return call("FloorDiv", e.args());
    case Op::Mod: return call(e.name().empty() ? "PythonMod" : e.name(), e.args());
    case Op::CeilDiv: return call(e.name().empty() ? "CeilDiv" : e.name(), e.args());
    case Op::TrueDiv: return call(e.name().empty() ? "IntTrueDiv" : e.name(), e.args());
    case Op::ToInt: return call(e.name(), e.args());
    case Op::Max: return call("Max", e.args());
    case Op::Min: return call("Min", e.args());
    case Op::Eq: return call("Equality", e.args());
    case Op::Ne: return call("Unequality", e.args());
    case Op::Lt: return call("StrictLessThan", e.args());
    case Op::Le: return call("LessThan", e.args());
    case Op::Gt: return call("StrictGreaterThan", e.args());
    case Op::Ge: return call("GreaterThan", e.args());
    case Op::And: return call("And", e.args());
    case Op::Or: return call("Or", e.args());
    case Op::Not: return call("Not", e.args());
    case Op::Float: return "Float('" + e.name() + "', precision=53)";
    case Op::Function: return call(e.name(), e.args());
  }
  return e.to_string();
}

namespace {

json sym_int(const SymInt& s) {
  if (!s.is_symbolic) return {{"as_int", s.value}};
  json expr = {{"expr_str", sympy_srepr(*s.expr)}};
  expr["hint"] = s.hint ? json{{"as_int", *s.hint}} : json(nullptr);
  return {{"as_expr", expr}};
}

json sym_bool(const SymInt& s) {
  if (!s.is_symbolic) return {{"as_bool", s.value != 0}};
  json expr = {{"expr_str", sympy_srepr(*s.expr)}};
  expr["hint"] = s.hint ? json{{"as_bool", *s.hint != 0}} : json(nullptr);
  return {{"as_expr", expr}};
}

json tensor_meta(const TensorMeta& m) {
  json sizes = json::array(), strides = json::array();
  for (const auto& s : m.sizes) sizes.push_back(sym_int(s));
  for (const auto& s : m.strides) strides.push_back(sym_int(s));
  return {{"dtype", dtype_to_serialized(m.dtype)}, {"sizes", sizes},
          {"requires_grad", m.requires_grad}, {"device", {{"type", m.device}}},
          {"strides", strides}, {"storage_offset", {{"as_int", 0}}}, {"layout", 7}};
}

// Non-finite numbers are written as placeholders and turned into the bare
// tokens Python's json module reads (NaN, Infinity) after dumping.
const char* const kNaN = "@pt2web-NaN@";
const char* const kInf = "@pt2web-Infinity@";
const char* const kNegInf = "@pt2web--Infinity@";

json float_value(double d) {
  if (std::isnan(d)) return kNaN;
  if (std::isinf(d)) return d > 0 ? kInf : kNegInf;
  return d;
}

std::string bare_non_finite(std::string text) {
  for (auto [from, to] : {std::pair<const char*, const char*>{kNaN, "NaN"}, {kInf, "Infinity"}, {kNegInf, "-Infinity"}}) {
    std::string quoted = std::string("\"") + from + "\"";
    for (size_t at = text.find(quoted); at != std::string::npos; at = text.find(quoted, at))
      text.replace(at, quoted.size(), to);
  }
  return text;
}

json named(const std::string& name) { return {{"name", name}}; }

json graph_json(const Graph& g);

// One element of a sym list: a name or a constant.
json sym_element(const Argument& a, size_t i, const char* constant_key) {
  if (!a.names[i].empty()) return {{"as_name", a.names[i]}};
  if (std::string(constant_key) == "as_float") return {{"as_float", float_value(a.floats[i])}};
  if (std::string(constant_key) == "as_bool") return {{"as_bool", a.bools[i]}};
  return {{"as_int", a.ints[i]}};
}

json argument(const Argument& a) {
  using K = Argument::Kind;
  switch (a.kind) {
    case K::None: return {{"as_none", true}};
    case K::Tensor: return {{"as_tensor", named(a.name)}};
    case K::Tensors: {
      json list = json::array();
      for (const auto& n : a.names) list.push_back(named(n));
      return {{"as_tensors", list}};
    }
    case K::OptionalTensors: {
      json list = json::array();
      for (const auto& n : a.names) list.push_back(n.empty() ? json{{"as_none", true}} : json{{"as_tensor", named(n)}});
      return {{"as_optional_tensors", list}};
    }
    case K::Int: return {{"as_int", a.ints.at(0)}};
    case K::Ints: return {{"as_ints", a.ints}};
    case K::Float: return {{"as_float", float_value(a.floats.at(0))}};
    case K::Floats: {
      json list = json::array();
      for (double d : a.floats) list.push_back(float_value(d));
      return {{"as_floats", list}};
    }
    case K::Bool: return {{"as_bool", static_cast<bool>(a.bools.at(0))}};
    case K::Bools: {
      json list = json::array();
      for (bool b : a.bools) list.push_back(b);
      return {{"as_bools", list}};
    }
    case K::String: return {{"as_string", a.str}};
    case K::Strings: return {{"as_strings", a.strings}};
    case K::SymInt: return {{"as_sym_int", sym_element(a, 0, "as_int")}};
    case K::SymBool: return {{"as_sym_bool", sym_element(a, 0, "as_bool")}};
    case K::SymFloat: return {{"as_sym_float", sym_element(a, 0, "as_float")}};
    case K::SymInts:
    case K::SymBools:
    case K::SymFloats: {
      const char* key = a.kind == K::SymInts ? "as_sym_ints" : a.kind == K::SymBools ? "as_sym_bools" : "as_sym_floats";
      const char* constant = a.kind == K::SymInts ? "as_int" : a.kind == K::SymBools ? "as_bool" : "as_float";
      json list = json::array();
      for (size_t i = 0; i < a.names.size(); ++i) list.push_back(sym_element(a, i, constant));
      return {{key, list}};
    }
    case K::ScalarType: return {{"as_scalar_type", dtype_to_serialized(a.dtype)}};
    case K::MemoryFormat: return {{"as_memory_format", a.ints.at(0)}};
    case K::Layout: return {{"as_layout", a.ints.at(0)}};
    case K::Device: return {{"as_device", {{"type", a.str}}}};
    case K::Graph: return {{"as_graph", {{"name", a.name}, {"graph", graph_json(*a.graph)}}}};
    case K::CustomObj: return {{"as_custom_obj", {{"name", a.name}, {"class_fqn", a.str}}}};
    case K::Operator: return {{"as_operator", a.str}};
  }
  fail(ErrorCode::Internal, "unknown argument kind");
}

json node_json(const Node& n) {
  json inputs = json::array(), outputs = json::array();
  for (const auto& in : n.inputs) inputs.push_back({{"name", in.name}, {"arg", argument(in.arg)}});
  for (const auto& o : n.outputs) outputs.push_back(argument(o));
  json j = {{"target", n.target}, {"inputs", inputs}, {"outputs", outputs}, {"metadata", n.metadata}};
  if (n.is_hop_single_tensor_return) j["is_hop_single_tensor_return"] = *n.is_hop_single_tensor_return;
  return j;
}

json graph_json(const Graph& g) {
  json inputs = json::array(), outputs = json::array(), nodes = json::array();
  for (const auto& a : g.inputs) inputs.push_back(argument(a));
  for (const auto& a : g.outputs) outputs.push_back(argument(a));
  for (const auto& n : g.nodes) nodes.push_back(node_json(n));
  json tensors = json::object(), ints = json::object(), bools = json::object(), floats = json::object();
  for (const auto& [name, m] : g.tensor_values) tensors[name] = tensor_meta(m);
  for (const auto& [name, s] : g.sym_int_values) ints[name] = sym_int(s);
  for (const auto& [name, s] : g.sym_bool_values) bools[name] = sym_bool(s);
  for (const auto& [name, s] : g.sym_float_values) {
    json expr = s.is_symbolic ? json{{"as_expr", {{"expr_str", sympy_srepr(*s.expr)}, {"hint", nullptr}}}}
                              : json{{"as_float", static_cast<double>(s.value)}};
    floats[name] = expr;
  }
  return {{"inputs", inputs}, {"outputs", outputs}, {"nodes", nodes}, {"tensor_values", tensors},
          {"sym_int_values", ints}, {"sym_bool_values", bools}, {"is_single_tensor_return", g.is_single_tensor_return},
          {"custom_obj_values", json::object()}, {"sym_float_values", floats}};
}

json input_spec(const InputSpec& s) {
  switch (s.kind) {
    case InputKind::UserInput:
      if (s.is_constant_input) {
        Argument value = s.arg;
        value.name.clear();
        return {{"constant_input", {{"name", s.arg.name}, {"value", argument(value)}}}};
      }
      return {{"user_input", {{"arg", argument(s.arg)}}}};
    case InputKind::Parameter: return {{"parameter", {{"arg", named(s.arg.name)}, {"parameter_name", s.target}}}};
    case InputKind::Buffer:
      return {{"buffer", {{"arg", named(s.arg.name)}, {"buffer_name", s.target}, {"persistent", s.persistent.value_or(true)}}}};
    case InputKind::ConstantTensor:
      return {{"tensor_constant", {{"arg", named(s.arg.name)}, {"tensor_constant_name", s.target}}}};
    case InputKind::CustomObj:
      return {{"custom_obj", {{"arg", {{"name", s.arg.name}, {"class_fqn", s.arg.str}}}, {"custom_obj_name", s.target}}}};
    case InputKind::Token: return {{"token", {{"arg", named(s.arg.name)}}}};
  }
  fail(ErrorCode::Internal, "unknown input kind");
}

json output_spec(const OutputSpec& s) {
  auto with_target = [&](const char* kind, const char* target_key) {
    return json{{kind, {{"arg", named(s.arg.name)}, {target_key, s.target}}}};
  };
  switch (s.kind) {
    case OutputKind::UserOutput: return {{"user_output", {{"arg", argument(s.arg)}}}};
    case OutputKind::LossOutput: return {{"loss_output", {{"arg", named(s.arg.name)}}}};
    case OutputKind::BufferMutation: return with_target("buffer_mutation", "buffer_name");
    case OutputKind::GradientToParameter: return with_target("gradient_to_parameter", "parameter_name");
    case OutputKind::GradientToUserInput: return with_target("gradient_to_user_input", "user_input_name");
    case OutputKind::UserInputMutation: return with_target("user_input_mutation", "user_input_name");
    case OutputKind::Token: return {{"token", {{"arg", named(s.arg.name)}}}};
    case OutputKind::ParameterMutation: return with_target("parameter_mutation", "parameter_name");
  }
  fail(ErrorCode::Internal, "unknown output kind");
}

json call_graph(const std::vector<ModuleCallEntry>& entries) {
  json out = json::array();
  for (const auto& e : entries) {
    json j = {{"fqn", e.fqn}};
    if (e.signature) {
      json inputs = json::array(), outputs = json::array();
      for (const auto& a : e.signature->inputs) inputs.push_back(argument(a));
      for (const auto& a : e.signature->outputs) outputs.push_back(argument(a));
      j["signature"] = {{"inputs", inputs}, {"outputs", outputs}, {"in_spec", e.signature->in_spec_text},
                        {"out_spec", e.signature->out_spec_text}, {"forward_arg_names", e.signature->forward_arg_names}};
    }
    out.push_back(j);
  }
  return out;
}

}  // namespace

std::string write_program_json(const ExportedProgram& program) {
  json in_specs = json::array(), out_specs = json::array();
  for (const auto& s : program.signature.input_specs) in_specs.push_back(input_spec(s));
  for (const auto& s : program.signature.output_specs) out_specs.push_back(output_spec(s));
  json ranges = json::object();
  for (const auto& [name, r] : program.range_constraints)
    ranges[name] = {{"min_val", r.min_val ? json(*r.min_val) : json(kNegInf)},
                    {"max_val", r.max_val ? json(*r.max_val) : json(kInf)}};
  json opset = json::object();
  for (const auto& [name, v] : program.opset_version) opset[name] = v;
  json guards = json::array();
  for (const auto& g : program.guards) guards.push_back(g.code);
  json root = {
      {"graph_module",
       {{"graph", graph_json(program.graph)},
        {"signature", {{"input_specs", in_specs}, {"output_specs", out_specs}}},
        {"module_call_graph", call_graph(program.module_call_graph)},
        {"metadata", json::object()}}},
      {"opset_version", opset},
      {"range_constraints", ranges},
      {"guards_code", guards},
      {"schema_version", {{"major", 8}, {"minor", 2}}},
      {"verifiers", json::array({program.dialect.empty() ? "ATEN" : program.dialect})},
      {"torch_version", program.torch_version}};
  return bare_non_finite(root.dump());
}

}  // namespace pt2web
