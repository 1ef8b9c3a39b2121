// print_program: a readable rendering of an ExportedProgram in the layout of
// Python's print(ep): the graph as a forward() with typed placeholders, the
// graph signature and the range constraints.
#include <sstream>

#include "program/exported_program.h"

namespace pt2web {

namespace {

std::string type_annotation(const Graph& g, const std::string& name) {
  auto it = g.tensor_values.find(name);
  if (it == g.tensor_values.end()) return "";
  std::ostringstream out;
  out << dtype_short_name(it->second.dtype) << "[";
  for (size_t i = 0; i < it->second.sizes.size(); ++i)
    out << (i ? ", " : "") << it->second.sizes[i].to_string();
  out << "]";
  return out.str();
}

std::string format_double(double d) {
  std::ostringstream out;
  out << d;
  std::string s = out.str();
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

std::string render(const Argument& a) {
  std::ostringstream out;
  auto list = [&](size_t n, auto item) {
    out << "[";
    for (size_t k = 0; k < n; ++k) out << (k ? ", " : "") << item(k);
    out << "]";
  };
  using K = Argument::Kind;
  switch (a.kind) {
    case K::None: out << "None"; break;
    case K::Tensor: case K::CustomObj: case K::Graph: out << a.name; break;
    case K::Tensors: list(a.names.size(), [&](size_t k) { return a.names[k]; }); break;
    case K::OptionalTensors:
      list(a.names.size(), [&](size_t k) { return a.names[k].empty() ? std::string("None") : a.names[k]; });
      break;
    case K::Int: out << a.ints[0]; break;
    case K::Ints: list(a.ints.size(), [&](size_t k) { return std::to_string(a.ints[k]); }); break;
    case K::Float: out << format_double(a.floats[0]); break;
    case K::Floats: list(a.floats.size(), [&](size_t k) { return format_double(a.floats[k]); }); break;
    case K::Bool: out << (a.bools[0] ? "True" : "False"); break;
    case K::Bools: list(a.bools.size(), [&](size_t k) { return std::string(a.bools[k] ? "True" : "False"); }); break;
    case K::String: out << "'" << a.str << "'"; break;
    case K::Strings: list(a.strings.size(), [&](size_t k) { return "'" + a.strings[k] + "'"; }); break;
    case K::SymInt: case K::SymBool: case K::SymFloat:
      out << (a.names[0].empty() ? std::to_string(a.ints[0]) : a.names[0]);
      break;
    case K::SymInts: case K::SymBools: case K::SymFloats:
      list(a.names.size(), [&](size_t k) { return a.names[k].empty() ? std::to_string(a.ints[k]) : a.names[k]; });
      break;
    case K::ScalarType: out << "torch." << dtype_name(a.dtype); break;
    case K::MemoryFormat: out << "torch.memory_format(" << a.ints[0] << ")"; break;
    case K::Layout: out << (a.ints[0] == 7 ? "torch.strided" : "torch.layout(" + std::to_string(a.ints[0]) + ")"); break;
    case K::Device: out << "device(type='" << a.str << "')"; break;
    case K::Operator: out << a.str; break;
  }
  return out.str();
}

std::string output_names(const Node& node) {
  std::vector<std::string> names;
  for (const auto& o : node.outputs) {
    std::string r = render(o);
    names.push_back(r);
  }
  if (names.empty()) return "_";
  if (names.size() == 1) return names[0];
  std::string joined;
  for (size_t i = 0; i < names.size(); ++i) joined += (i ? ", " : "") + names[i];
  return joined;
}

void print_graph(std::ostringstream& out, const Graph& g, const std::string& indent,
                 const std::string& name) {
  out << indent << "class " << name << "(torch.nn.Module):\n";
  out << indent << "    def forward(self";
  for (const auto& in : g.inputs) {
    out << ", " << render(in);
    std::string t = in.kind == Argument::Kind::Tensor ? type_annotation(g, in.name) : "";
    if (!t.empty()) out << ": \"" << t << "\"";
  }
  out << "):\n";
  for (const auto& node : g.nodes) {
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph)
        print_graph(out, *in.arg.graph, indent + "        ", in.arg.name);
    out << indent << "        " << output_names(node);
    if (node.outputs.size() == 1 && node.outputs[0].kind == Argument::Kind::Tensor) {
      std::string t = type_annotation(g, node.outputs[0].name);
      if (!t.empty()) out << ": \"" << t << "\"";
    }
    out << " = " << node.target << "(";
    bool first = true;
    for (const auto& in : node.inputs) {
      out << (first ? "" : ", ");
      first = false;
      if (in.kind == 2) out << in.name << " = ";  // keyword arguments
      out << render(in.arg);
    }
    out << ")\n";
  }
  out << indent << "        return (";
  for (size_t i = 0; i < g.outputs.size(); ++i) out << (i ? ", " : "") << render(g.outputs[i]);
  out << (g.outputs.size() == 1 ? ",)" : ")") << "\n";
}

}  // namespace

std::string print_program(const ExportedProgram& ep) {
  std::ostringstream out;
  out << "ExportedProgram:\n";
  print_graph(out, ep.graph, "    ", "GraphModule");
  out << "\nGraph signature:\n    # inputs\n";
  for (const auto& s : ep.signature.input_specs) {
    out << "    " << (s.is_constant_input ? s.arg.name + " = " + render(s.arg) : render(s.arg)) << ": "
        << input_kind_name(s.kind);
    if (!s.target.empty()) out << " target='" << s.target << "'";
    if (s.persistent) out << " persistent=" << (*s.persistent ? "True" : "False");
    out << "\n";
  }
  out << "\n    # outputs\n";
  for (const auto& s : ep.signature.output_specs) {
    out << "    " << render(s.arg) << ": " << output_kind_name(s.kind);
    if (!s.target.empty()) out << " target='" << s.target << "'";
    out << "\n";
  }
  out << "\nRange constraints: {";
  bool first = true;
  for (const auto& [symbol, range] : ep.range_constraints) {
    out << (first ? "" : ", ") << symbol << ": VR[" << (range.min_val ? std::to_string(*range.min_val) : "-int_oo")
        << ", " << (range.max_val ? std::to_string(*range.max_val) : "int_oo") << "]";
    first = false;
  }
  out << "}\n";
  if (!ep.guards.empty()) {
    out << "\nGuards:\n";
    for (const auto& g : ep.guards) out << "    " << guard_text(g) << "\n";
  }
  return out.str();
}

}  // namespace pt2web
