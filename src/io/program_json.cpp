#include "io/program_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/stage_times.h"

namespace pt2web {

namespace {

using json = nlohmann::json;

// Python's json module writes bare Infinity/-Infinity/NaN tokens, which are not
// JSON. Quote them (outside strings) so the parser accepts them.
std::string quote_non_finite_tokens(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    for (const char* token : {"-Infinity", "Infinity", "NaN"}) {
      size_t n = std::char_traits<char>::length(token);
      if (text.compare(i, n, token) == 0) {
        out += '"';
        out += token;
        out += '"';
        i += n - 1;
        c = 0;
        break;
      }
    }
    if (c) out += c;
  }
  return out;
}

class Parser {
 public:
  [[noreturn]] void bad(const std::string& path, const std::string& what) const {
    fail(ErrorCode::BadFile, "malformed program JSON at ", path, ": ", what);
  }

  const json& field(const json& obj, const char* key, const std::string& path) const {
    if (!obj.is_object()) bad(path, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) bad(path, std::string("missing field '") + key + "'");
    return *it;
  }

  // The active member of a union: the only key, or the only non-null key of
  // the old encoding where every variant was written.
  std::pair<std::string, const json*> variant(const json& obj, const std::string& path) const {
    if (!obj.is_object() || obj.empty()) bad(path, "expected a union object");
    if (obj.size() == 1) return {obj.begin().key(), &obj.begin().value()};
    const json* found = nullptr;
    std::string key;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      if (it.value().is_null()) continue;
      if (found) bad(path, "union has more than one active member");
      found = &it.value();
      key = it.key();
    }
    if (!found) {
      if (obj.contains("as_none")) return {"as_none", &obj["as_none"]};
      bad(path, "union has no active member");
    }
    return {key, found};
  }

  int64_t get_int(const json& j, const std::string& path) const {
    if (j.is_number_integer()) return j.get<int64_t>();
    if (j.is_number_unsigned()) {
      uint64_t u = j.get<uint64_t>();
      if (u > static_cast<uint64_t>(INT64_MAX)) bad(path, "integer out of int64 range");
      return static_cast<int64_t>(u);
    }
    if (j.is_boolean()) return j.get<bool>() ? 1 : 0;
    bad(path, "expected an integer");
  }

  double get_float(const json& j, const std::string& path) const {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
      std::string s = j.get<std::string>();
      if (s == "Infinity" || s == "inf") return INFINITY;
      if (s == "-Infinity" || s == "-inf") return -INFINITY;
      if (s == "NaN" || s == "nan") return NAN;
    }
    bad(path, "expected a number");
  }

  // A float where an integer is expected, truncated like Python's int().
  int64_t float_to_int(double v, const std::string& path) const {
    if (!(v > -9.3e18 && v < 9.3e18)) bad(path, "number out of int64 range");
    return static_cast<int64_t>(v);
  }

  // torch tensors never have negative sizes or strides, and their element
  // count fits int64; anything else is a corrupt or hostile file.
  void check_geometry(const TensorMeta& meta, const std::string& path) const {
    int64_t numel = 1;
    for (size_t i = 0; i < meta.sizes.size(); ++i) {
      const SymInt& size = meta.sizes[i];
      if (size.is_symbolic) continue;
      if (size.value < 0)
        bad(path + ".sizes[" + std::to_string(i) + "]", "negative size " + std::to_string(size.value));
      if (__builtin_mul_overflow(numel, size.value, &numel))
        bad(path + ".sizes", "the element count overflows int64");
    }
    for (size_t i = 0; i < meta.strides.size(); ++i)
      if (!meta.strides[i].is_symbolic && meta.strides[i].value < 0)
        bad(path + ".strides[" + std::to_string(i) + "]",
            "negative stride " + std::to_string(meta.strides[i].value));
  }

  std::string get_string(const json& j, const std::string& path) const {
    if (!j.is_string()) bad(path, "expected a string");
    return j.get<std::string>();
  }

  std::string tensor_name(const json& j, const std::string& path) const {
    if (j.is_string()) return j.get<std::string>();  // schema 1/2 OptionalTensorArgument
    return get_string(field(j, "name", path), path + ".name");
  }

  SymInt parse_sym_int(const json& j, const std::string& path) const {
    auto [key, payload] = variant(j, path);
    SymInt out;
    if (key == "as_int" || key == "as_bool" || key == "as_float") {
      out.value = key == "as_float" ? float_to_int(get_float(*payload, path), path)
                                    : get_int(*payload, path);
      return out;
    }
    if (key != "as_expr") bad(path, "unknown SymInt variant '" + key + "'");
    out.is_symbolic = true;
    const json& expr = *payload;
    std::string text = expr.is_string() ? expr.get<std::string>()
                                        : get_string(field(expr, "expr_str", path), path + ".expr_str");
    out.expr = SymExpr::parse(text);
    if (expr.is_object() && expr.contains("hint") && !expr["hint"].is_null()) {
      const json& hint = expr["hint"];
      if (hint.is_number_integer()) {
        out.hint = hint.get<int64_t>();
      } else {
        auto [hkey, hval] = variant(hint, path + ".hint");
        if (hkey == "as_int" || hkey == "as_bool") out.hint = get_int(*hval, path + ".hint");
      }
    }
    return out;
  }

  TensorMeta parse_tensor_meta(const json& j, const std::string& path) const {
    const json& meta = j.contains("meta") && j.size() == 1 ? j["meta"] : j;  // schema 1 wrapper
    TensorMeta out;
    out.dtype = dtype_from_serialized(get_int(field(meta, "dtype", path), path + ".dtype"));
    const json& sizes = field(meta, "sizes", path);
    for (size_t i = 0; i < sizes.size(); ++i)
      out.sizes.push_back(parse_sym_int(sizes[i], path + ".sizes[" + std::to_string(i) + "]"));
    if (meta.contains("strides"))
      for (size_t i = 0; i < meta["strides"].size(); ++i)
        out.strides.push_back(parse_sym_int(meta["strides"][i], path + ".strides"));
    if (meta.contains("requires_grad")) out.requires_grad = meta["requires_grad"].get<bool>();
    if (meta.contains("device") && meta["device"].is_object() && meta["device"].contains("type"))
      out.device = meta["device"]["type"].get<std::string>();
    check_geometry(out, path);
    return out;
  }

  std::vector<std::string> names_of(const json& list, const std::string& path) const {
    std::vector<std::string> out;
    for (size_t i = 0; i < list.size(); ++i) out.push_back(tensor_name(list[i], path));
    return out;
  }

  Argument parse_argument(const json& j, const std::string& path) const {
    auto [key, payload_ptr] = variant(j, path);
    const json& p = *payload_ptr;
    Argument a;
    using K = Argument::Kind;
    if (key == "as_none") {
      a.kind = K::None;
    } else if (key == "as_tensor") {
      a.kind = K::Tensor;
      a.name = tensor_name(p, path);
    } else if (key == "as_tensors") {
      a.kind = K::Tensors;
      a.names = names_of(p, path);
    } else if (key == "as_optional_tensors") {
      a.kind = K::OptionalTensors;
      for (size_t i = 0; i < p.size(); ++i) {
        auto [k2, v2] = variant(p[i], path);
        a.names.push_back(k2 == "as_tensor" ? tensor_name(*v2, path) : "");
      }
    } else if (key == "as_optional_tensor") {
      auto [k2, v2] = variant(p, path);
      if (k2 == "as_tensor") {
        a.kind = K::Tensor;
        a.name = tensor_name(*v2, path);
      }
    } else if (key == "as_int") {
      a.kind = K::Int;
      a.ints = {get_int(p, path)};
    } else if (key == "as_ints") {
      a.kind = K::Ints;
      for (const auto& x : p) a.ints.push_back(get_int(x, path));
    } else if (key == "as_float") {
      a.kind = K::Float;
      a.floats = {get_float(p, path)};
    } else if (key == "as_floats") {
      a.kind = K::Floats;
      for (const auto& x : p) a.floats.push_back(get_float(x, path));
    } else if (key == "as_bool") {
      a.kind = K::Bool;
      a.bools = {p.get<bool>()};
    } else if (key == "as_bools") {
      a.kind = K::Bools;
      for (const auto& x : p) a.bools.push_back(x.get<bool>());
    } else if (key == "as_string") {
      a.kind = K::String;
      a.str = get_string(p, path);
    } else if (key == "as_strings") {
      a.kind = K::Strings;
      for (const auto& x : p) a.strings.push_back(get_string(x, path));
    } else if (key == "as_sym_int" || key == "as_sym_bool" || key == "as_sym_float") {
      a.kind = key == "as_sym_int" ? K::SymInt : key == "as_sym_bool" ? K::SymBool : K::SymFloat;
      parse_sym_element(p, path, a);
    } else if (key == "as_sym_ints" || key == "as_sym_bools" || key == "as_sym_floats") {
      a.kind = key == "as_sym_ints" ? K::SymInts : key == "as_sym_bools" ? K::SymBools : K::SymFloats;
      for (const auto& x : p) parse_sym_element(x, path, a);
    } else if (key == "as_scalar_type") {
      a.kind = K::ScalarType;
      a.dtype = dtype_from_serialized(get_int(p, path));
    } else if (key == "as_memory_format") {
      a.kind = K::MemoryFormat;
      a.ints = {get_int(p, path)};
    } else if (key == "as_layout") {
      a.kind = K::Layout;
      a.ints = {get_int(p, path)};
    } else if (key == "as_device") {
      a.kind = K::Device;
      a.str = p.is_object() && p.contains("type") ? p["type"].get<std::string>() : "cpu";
    } else if (key == "as_graph") {
      a.kind = K::Graph;
      a.name = get_string(field(p, "name", path), path + ".name");
      a.graph = std::make_shared<Graph>(parse_graph(field(p, "graph", path), path + ".graph"));
    } else if (key == "as_custom_obj") {
      a.kind = K::CustomObj;
      a.name = p.contains("name") ? p["name"].get<std::string>() : "";
      a.str = p.contains("class_fqn") ? p["class_fqn"].get<std::string>() : "";
    } else if (key == "as_operator") {
      a.kind = K::Operator;
      a.str = get_string(p, path);
    } else {
      bad(path, "unsupported argument kind '" + key + "'");
    }
    return a;
  }

  // One element of a sym list (or a single sym value): a name or a constant.
  void parse_sym_element(const json& j, const std::string& path, Argument& a) const {
    auto [key, v] = variant(j, path);
    if (key == "as_name") {
      a.names.push_back(get_string(*v, path));
      a.ints.push_back(0);
      a.floats.push_back(0);
      a.bools.push_back(false);
    } else {
      a.names.push_back("");
      if (key == "as_float") {
        a.floats.push_back(get_float(*v, path));
        double f = a.floats.back();  // inf and NaN are valid floats with no int view
        a.ints.push_back(f > -9.3e18 && f < 9.3e18 ? static_cast<int64_t>(f) : 0);
        a.bools.push_back(a.floats.back() != 0);
      } else {
        a.ints.push_back(get_int(*v, path));
        a.floats.push_back(static_cast<double>(a.ints.back()));
        a.bools.push_back(a.ints.back() != 0);
      }
    }
    if (a.kind == Argument::Kind::SymInt || a.kind == Argument::Kind::SymBool ||
        a.kind == Argument::Kind::SymFloat)
      a.name = a.names.back();
  }

  Node parse_node(const json& j, const std::string& path) const {
    Node n;
    n.target = get_string(field(j, "target", path), path + ".target");
    const json& inputs = field(j, "inputs", path);
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string ipath = path + ".inputs[" + std::to_string(i) + "]";
      NamedArgument na;
      na.name = inputs[i].contains("name") ? get_string(inputs[i]["name"], ipath) : "";
      na.arg = parse_argument(field(inputs[i], "arg", ipath), ipath + ".arg");
      if (inputs[i].contains("kind") && !inputs[i]["kind"].is_null())
        na.kind = static_cast<int>(get_int(inputs[i]["kind"], ipath));
      n.inputs.push_back(std::move(na));
    }
    const json& outputs = field(j, "outputs", path);
    for (size_t i = 0; i < outputs.size(); ++i)
      n.outputs.push_back(parse_argument(outputs[i], path + ".outputs[" + std::to_string(i) + "]"));
    if (j.contains("metadata") && j["metadata"].is_object())
      for (auto it = j["metadata"].begin(); it != j["metadata"].end(); ++it)
        if (it.value().is_string()) n.metadata[it.key()] = it.value().get<std::string>();
    if (j.contains("is_hop_single_tensor_return") && j["is_hop_single_tensor_return"].is_boolean())
      n.is_hop_single_tensor_return = j["is_hop_single_tensor_return"].get<bool>();
    return n;
  }

  // Subgraphs (cond, while_loop, map) nest a few levels in real programs; the
  // bound keeps the recursive readers (here, verifier, executor) off the
  // end of the stack.
  static constexpr int kMaxGraphDepth = 32;

  Graph parse_graph(const json& j, const std::string& path) const {
    if (graph_depth_ >= kMaxGraphDepth)
      bad(path, "subgraphs nest more than " + std::to_string(kMaxGraphDepth) + " levels deep");
    struct Nesting {
      int& depth;
      explicit Nesting(int& d) : depth(d) { ++depth; }
      ~Nesting() { --depth; }
    } nesting(graph_depth_);
    Graph g;
    const json& inputs = field(j, "inputs", path);
    for (size_t i = 0; i < inputs.size(); ++i)
      g.inputs.push_back(parse_argument(inputs[i], path + ".inputs[" + std::to_string(i) + "]"));
    const json& outputs = field(j, "outputs", path);
    for (size_t i = 0; i < outputs.size(); ++i)
      g.outputs.push_back(parse_argument(outputs[i], path + ".outputs[" + std::to_string(i) + "]"));
    const json& nodes = field(j, "nodes", path);
    for (size_t i = 0; i < nodes.size(); ++i)
      g.nodes.push_back(parse_node(nodes[i], path + ".nodes[" + std::to_string(i) + "]"));
    if (j.contains("tensor_values"))
      for (auto it = j["tensor_values"].begin(); it != j["tensor_values"].end(); ++it)
        g.tensor_values[it.key()] =
            parse_tensor_meta(it.value(), path + ".tensor_values['" + it.key() + "']");
    for (const char* table : {"sym_int_values", "sym_bool_values", "sym_float_values"}) {
      if (!j.contains(table)) continue;
      auto& dest = std::string(table) == "sym_int_values"    ? g.sym_int_values
                   : std::string(table) == "sym_bool_values" ? g.sym_bool_values
                                                             : g.sym_float_values;
      for (auto it = j[table].begin(); it != j[table].end(); ++it)
        dest[it.key()] = parse_sym_int(it.value(), path + "." + table + "['" + it.key() + "']");
    }
    if (j.contains("is_single_tensor_return") && j["is_single_tensor_return"].is_boolean())
      g.is_single_tensor_return = j["is_single_tensor_return"].get<bool>();
    return g;
  }

  InputSpec parse_input_spec(const json& j, const std::string& path) const {
    const auto active = variant(j, path);  // not a structured binding: the lambdas below capture it
    const std::string& key = active.first;
    const json* p = active.second;
    InputSpec s;
    auto arg_of = [&](const json& obj) {
      Argument a;
      a.kind = Argument::Kind::Tensor;
      a.name = tensor_name(field(obj, "arg", path), path + ".arg");
      return a;
    };
    if (key == "user_input") {
      s.kind = InputKind::UserInput;
      s.arg = parse_argument(field(*p, "arg", path), path + ".arg");
    } else if (key == "parameter") {
      s.kind = InputKind::Parameter;
      s.arg = arg_of(*p);
      s.target = get_string(field(*p, "parameter_name", path), path);
    } else if (key == "buffer") {
      s.kind = InputKind::Buffer;
      s.arg = arg_of(*p);
      s.target = get_string(field(*p, "buffer_name", path), path);
      s.persistent = p->contains("persistent") && (*p)["persistent"].is_boolean()
                         ? std::optional<bool>((*p)["persistent"].get<bool>())
                         : std::optional<bool>(true);
    } else if (key == "tensor_constant") {
      s.kind = InputKind::ConstantTensor;
      s.arg = arg_of(*p);
      s.target = get_string(field(*p, "tensor_constant_name", path), path);
    } else if (key == "custom_obj") {
      s.kind = InputKind::CustomObj;
      s.arg.kind = Argument::Kind::CustomObj;
      s.arg.name = tensor_name(field(*p, "arg", path), path);
      s.target = get_string(field(*p, "custom_obj_name", path), path);
    } else if (key == "token") {
      s.kind = InputKind::Token;
      s.arg = arg_of(*p);
    } else if (key == "constant_input") {
      s.kind = InputKind::UserInput;
      s.is_constant_input = true;
      s.arg = parse_argument(field(*p, "value", path), path + ".value");
      s.arg.name = get_string(field(*p, "name", path), path + ".name");
    } else {
      bad(path, "unknown input spec kind '" + key + "'");
    }
    return s;
  }

  OutputSpec parse_output_spec(const json& j, const std::string& path) const {
    const auto active = variant(j, path);  // not a structured binding: the lambdas below capture it
    const std::string& key = active.first;
    const json* p = active.second;
    OutputSpec s;
    auto tensor_arg = [&]() {
      Argument a;
      a.kind = Argument::Kind::Tensor;
      a.name = tensor_name(field(*p, "arg", path), path + ".arg");
      return a;
    };
    auto target = [&](const char* name) { return get_string(field(*p, name, path), path); };
    if (key == "user_output") {
      s.kind = OutputKind::UserOutput;
      s.arg = parse_argument(field(*p, "arg", path), path + ".arg");
    } else if (key == "loss_output") {
      s.kind = OutputKind::LossOutput;
      s.arg = tensor_arg();
    } else if (key == "buffer_mutation") {
      s.kind = OutputKind::BufferMutation;
      s.arg = tensor_arg();
      s.target = target("buffer_name");
    } else if (key == "gradient_to_parameter") {
      s.kind = OutputKind::GradientToParameter;
      s.arg = tensor_arg();
      s.target = target("parameter_name");
    } else if (key == "gradient_to_user_input") {
      s.kind = OutputKind::GradientToUserInput;
      s.arg = tensor_arg();
      s.target = target("user_input_name");
    } else if (key == "user_input_mutation") {
      s.kind = OutputKind::UserInputMutation;
      s.arg = tensor_arg();
      s.target = target("user_input_name");
    } else if (key == "token") {
      s.kind = OutputKind::Token;
      s.arg = tensor_arg();
    } else if (key == "parameter_mutation") {
      s.kind = OutputKind::ParameterMutation;
      s.arg = tensor_arg();
      s.target = target("parameter_name");
    } else {
      bad(path, "unknown output spec kind '" + key + "'");
    }
    return s;
  }

  ModuleCallSignature parse_call_signature(const json& j, const std::string& path) const {
    ModuleCallSignature s;
    for (const auto& a : field(j, "inputs", path)) s.inputs.push_back(parse_argument(a, path + ".inputs"));
    for (const auto& a : field(j, "outputs", path)) s.outputs.push_back(parse_argument(a, path + ".outputs"));
    s.in_spec_text = get_string(field(j, "in_spec", path), path + ".in_spec");
    s.out_spec_text = get_string(field(j, "out_spec", path), path + ".out_spec");
    s.in_spec = TreeSpec::parse(s.in_spec_text);
    s.out_spec = TreeSpec::parse(s.out_spec_text);
    if (j.contains("forward_arg_names") && j["forward_arg_names"].is_array())
      for (const auto& n : j["forward_arg_names"]) s.forward_arg_names.push_back(n.get<std::string>());
    return s;
  }

  std::optional<int64_t> parse_bound(const json& j) const {
    if (j.is_null()) return std::nullopt;
    if (j.is_string() || j.is_number_float()) {
      double d = get_float(j, "range_constraints");
      if (!(std::fabs(d) < 9.2e18)) return std::nullopt;  // infinite, NaN or huge
      return static_cast<int64_t>(d);
    }
    int64_t v = get_int(j, "range_constraints");
    // torch's old "unbounded" default.
    if (v >= 9223372036854775806LL) return std::nullopt;
    return v;
  }

  ExportedProgram parse(const json& root) const {
    ExportedProgram ep;
    const json& gm = field(root, "graph_module", "$");
    ep.graph = parse_graph(field(gm, "graph", "graph_module"), "graph_module.graph");
    const json& sig = field(gm, "signature", "graph_module");
    if (!sig.contains("input_specs"))
      fail(ErrorCode::Unsupported, "program JSON uses the torch 2.1 graph signature (schema 1), which pt2web does not read");
    const json& in_specs = sig["input_specs"];
    for (size_t i = 0; i < in_specs.size(); ++i)
      ep.signature.input_specs.push_back(
          parse_input_spec(in_specs[i], "signature.input_specs[" + std::to_string(i) + "]"));
    const json& out_specs = field(sig, "output_specs", "signature");
    for (size_t i = 0; i < out_specs.size(); ++i)
      ep.signature.output_specs.push_back(
          parse_output_spec(out_specs[i], "signature.output_specs[" + std::to_string(i) + "]"));
    if (gm.contains("module_call_graph"))
      for (const auto& entry : gm["module_call_graph"]) {
        ModuleCallEntry e;
        e.fqn = entry.contains("fqn") ? entry["fqn"].get<std::string>() : "";
        if (entry.contains("signature") && !entry["signature"].is_null())
          e.signature = parse_call_signature(entry["signature"], "module_call_graph['" + e.fqn + "']");
        ep.module_call_graph.push_back(std::move(e));
      }
    if (root.contains("range_constraints"))
      for (auto it = root["range_constraints"].begin(); it != root["range_constraints"].end(); ++it) {
        RangeConstraint rc;
        if (it.value().contains("min_val")) rc.min_val = parse_bound(it.value()["min_val"]);
        if (it.value().contains("max_val")) rc.max_val = parse_bound(it.value()["max_val"]);
        ep.range_constraints[it.key()] = rc;
      }
    if (root.contains("guards_code") && root["guards_code"].is_array())
      for (const auto& code : root["guards_code"]) ep.guards.push_back(parse_guard(code.get<std::string>()));
    if (root.contains("schema_version")) {
      const json& v = root["schema_version"];
      if (v.is_number_integer()) {
        ep.schema_version.major = v.get<int64_t>();
      } else if (v.is_object()) {
        ep.schema_version.major = v.value("major", 0);
        ep.schema_version.minor = v.value("minor", 0);
      }
    }
    if (root.contains("verifiers") && root["verifiers"].is_array() && !root["verifiers"].empty())
      ep.dialect = root["verifiers"][0].get<std::string>();
    else if (root.contains("dialect") && root["dialect"].is_string())
      ep.dialect = root["dialect"].get<std::string>();
    else
      ep.dialect = "ATEN";
    if (root.contains("torch_version") && root["torch_version"].is_string())
      ep.torch_version = root["torch_version"].get<std::string>();
    if (root.contains("opset_version") && root["opset_version"].is_object())
      for (auto it = root["opset_version"].begin(); it != root["opset_version"].end(); ++it)
        if (it.value().is_number_integer()) ep.opset_version[it.key()] = it.value().get<int64_t>();
    return ep;
  }

 private:
  mutable int graph_depth_ = 0;  // parse_graph calls in progress
};

}  // namespace

ExportedProgram parse_program_json(const std::string& text) {
  json root;
  try {
    StageTimer timer("json parse");
    root = json::parse(quote_non_finite_tokens(text));
  } catch (const json::exception& e) {
    fail(ErrorCode::BadFile, "program JSON is not valid JSON: ", e.what());
  }
  try {
    StageTimer timer("program from json");
    return Parser().parse(root);
  } catch (const json::exception& e) {
    fail(ErrorCode::BadFile, "malformed program JSON: ", e.what());
  }
}

}  // namespace pt2web
