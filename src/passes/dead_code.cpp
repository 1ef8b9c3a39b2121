#include "passes/dead_code.h"

#include <set>

#include "ops/registry.h"

namespace pt2web {

bool has_side_effect(const std::string& target) {
  std::string q = qualified_op_name(target);
  if (q.rfind("aten::_assert", 0) == 0 || q.rfind("aten::sym_constrain_range", 0) == 0 ||
      q.rfind("aten::_print", 0) == 0)
    return true;
  if (q.rfind("_operator::", 0) == 0 || q.rfind("builtins::", 0) == 0 || q.rfind("math::", 0) == 0)
    return false;
  const OpEntry* entry = op_table().find(q);
  if (!entry) return true;
  for (const auto& a : entry->schema.arguments)
    if (a.is_mutable) return true;
  return false;
}

namespace {

void collect(const Argument& a, std::set<std::string>& read) {
  if (!a.name.empty()) read.insert(a.name);
  for (const auto& n : a.names)
    if (!n.empty()) read.insert(n);
}

bool any_read(const Node& node, const std::set<std::string>& read) {
  for (const Argument& o : node.outputs) {
    if (!o.name.empty() && read.count(o.name)) return true;
    for (const auto& n : o.names)
      if (read.count(n)) return true;
  }
  return false;
}

void drop_metadata(const Node& node, Graph& graph) {
  for (const Argument& o : node.outputs) {
    std::vector<std::string> names = o.names;
    names.push_back(o.name);
    for (const auto& n : names) {
      graph.tensor_values.erase(n);
      graph.sym_int_values.erase(n);
      graph.sym_bool_values.erase(n);
      graph.sym_float_values.erase(n);
    }
  }
}

}  // namespace

std::vector<bool> eliminate_dead_code(Graph& graph) {
  std::set<std::string> read;
  for (const Argument& o : graph.outputs) collect(o, read);
  std::vector<bool> kept(graph.nodes.size(), true);
  for (size_t i = graph.nodes.size(); i-- > 0;) {
    const Node& node = graph.nodes[i];
    if (!any_read(node, read) && !has_side_effect(node.target)) {
      kept[i] = false;
      continue;
    }
    for (const auto& in : node.inputs) collect(in.arg, read);
  }
  std::vector<Node> nodes;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    if (kept[i]) nodes.push_back(std::move(graph.nodes[i]));
    else drop_metadata(graph.nodes[i], graph);
  }
  graph.nodes = std::move(nodes);
  return kept;
}

void eliminate_dead_code(ExportedProgram& program) {
  std::vector<Graph*> pending = {&program.graph};
  while (!pending.empty()) {
    Graph* g = pending.back();
    pending.pop_back();
    eliminate_dead_code(*g);
    for (Node& n : g->nodes)
      for (auto& in : n.inputs)
        if (in.arg.kind == Argument::Kind::Graph && in.arg.graph) {
          // Subgraphs may be shared with other programs: edit a copy.
          in.arg.graph = std::make_shared<Graph>(*in.arg.graph);
          pending.push_back(in.arg.graph.get());
        }
  }
}

}  // namespace pt2web
