#include "runtime/fold_constants.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ops/registry.h"
#include "passes/fx_names.h"
#include "passes/graph_builder.h"
#include "passes/program_state.h"
#include "runtime/executor.h"

namespace pt2web {

namespace {

constexpr int64_t kAlwaysFoldBytes = 64 * 1024;

// Operators whose result is random: folding them would fix one draw forever.
bool is_random(const std::string& qualified) {
  static const std::set<std::string> random = {
      "rand", "rand_like", "randn", "randn_like", "randint", "randint_like", "randperm", "bernoulli", "normal",
      "uniform", "exponential", "geometric", "log_normal", "cauchy", "multinomial", "poisson", "dropout",
      "native_dropout", "feature_dropout", "alpha_dropout", "rrelu", "rrelu_with_noise", "rrelu_with_noise_functional",
      "_fused_dropout", "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided"};
  return random.count(fx_base_name(qualified)) != 0;
}

int64_t byte_size(const TensorMeta& m) {
  int64_t n = 1;
  for (const auto& s : m.sizes) {
    if (s.is_symbolic) return -1;
    n *= s.value;
  }
  return n * static_cast<int64_t>(element_size(m.dtype));
}

bool literal(const Argument& a) {
  using K = Argument::Kind;
  switch (a.kind) {
    case K::Graph: case K::CustomObj: case K::SymBool: case K::SymBools: case K::SymFloat: case K::SymFloats:
      return false;
    case K::SymInt: return a.name.empty();
    case K::SymInts:
      for (const auto& n : a.names)
        if (!n.empty()) return false;
      return true;
    default: return true;
  }
}

// Tensor names an argument reads.
std::vector<std::string> tensors_read(const Argument& a) {
  if (a.kind == Argument::Kind::Tensor) return {a.name};
  if (a.kind == Argument::Kind::Tensors || a.kind == Argument::Kind::OptionalTensors) {
    std::vector<std::string> out;
    for (const auto& n : a.names)
      if (!n.empty()) out.push_back(n);
    return out;
  }
  return {};
}

bool foldable_node(const Node& n, const Graph& g, const std::set<std::string>& constant) {
  if (n.target.rfind("torch.ops.aten.", 0) != 0) return false;
  const std::string qualified = qualified_op_name(n.target);
  const OpEntry* entry = op_table().find(qualified);
  if (!entry || is_random(qualified)) return false;
  for (const auto& arg : entry->schema.arguments)
    if (arg.is_mutable) return false;
  int64_t in_bytes = 0;
  for (const auto& in : n.inputs) {
    if (!literal(in.arg)) return false;
    for (const auto& t : tensors_read(in.arg)) {
      if (!constant.count(t)) return false;
      auto meta = g.tensor_values.find(t);
      if (meta == g.tensor_values.end()) return false;
      in_bytes += byte_size(meta->second);
    }
  }
  if (n.outputs.empty()) return false;
  for (const auto& out : n.outputs) {
    if (out.kind != Argument::Kind::Tensor) return false;
    auto meta = g.tensor_values.find(out.name);
    if (meta == g.tensor_values.end()) return false;
    int64_t bytes = byte_size(meta->second);
    if (bytes < 0 || bytes > std::max(in_bytes, kAlwaysFoldBytes)) return false;
  }
  return true;
}

}  // namespace

FoldConstantsResult fold_constants(const ExportedProgram& program) {
  const Graph& g = program.graph;
  std::map<std::string, Tensor> state = state_by_placeholder(program);
  std::set<std::string> written = written_placeholders(program);
  std::set<std::string> constant;
  for (const auto& [name, tensor] : state)
    if (!written.count(name)) constant.insert(name);

  std::vector<bool> folded(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!foldable_node(g.nodes[i], g, constant)) continue;
    folded[i] = true;
    for (const auto& out : g.nodes[i].outputs) constant.insert(out.name);
  }

  // Who reads each value: folded nodes, or something that stays (an
  // unfolded node, a subgraph operand, a graph output). A view read by
  // something that stays is unfolded (its input becomes the frontier), and a
  // folded node reading an unfolded one is unfolded too; repeated until
  // nothing changes (the folded set only shrinks).
  std::map<std::string, bool> read_by_kept;
  for (bool changed = true; changed;) {
    changed = false;
    read_by_kept.clear();
    auto note_reads = [&](const Argument& a, bool kept) {
      for (const auto& t : tensors_read(a)) read_by_kept[t] = read_by_kept[t] || kept;
    };
    for (const auto& o : g.outputs) note_reads(o, true);
    for (size_t i = 0; i < g.nodes.size(); ++i)
      for (const auto& in : g.nodes[i].inputs) note_reads(in.arg, !folded[i]);
    std::set<std::string> available;
    for (const auto& [name, tensor] : state)
      if (!written.count(name)) available.insert(name);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (!folded[i]) continue;
      const Node& n = g.nodes[i];
      bool frontier = false;
      for (const auto& out : n.outputs) frontier = frontier || read_by_kept[out.name];
      bool inputs_ready = true;
      for (const auto& in : n.inputs)
        for (const auto& t : tensors_read(in.arg)) inputs_ready = inputs_ready && available.count(t);
      if (!inputs_ready || (frontier && is_view_operator(qualified_op_name(n.target)))) {
        folded[i] = false;
        changed = true;
        continue;
      }
      for (const auto& out : n.outputs) available.insert(out.name);
    }
  }

  // The folded nodes as their own graph: placeholders are the state they
  // read, outputs the frontier values.
  Graph sub;
  std::set<std::string> sub_inputs;
  std::vector<Value> input_values;
  std::vector<std::string> frontier;
  size_t folded_count = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!folded[i]) continue;
    const Node& n = g.nodes[i];
    ++folded_count;
    for (const auto& in : n.inputs)
      for (const auto& t : tensors_read(in.arg)) {
        if (!state.count(t) || sub_inputs.count(t)) continue;
        sub_inputs.insert(t);
        Argument placeholder;
        placeholder.kind = Argument::Kind::Tensor;
        placeholder.name = t;
        sub.inputs.push_back(placeholder);
        sub.tensor_values[t] = g.tensor_values.at(t);
        input_values.push_back(Value::from_tensor(state.at(t)));
      }
    sub.nodes.push_back(n);
    for (const auto& out : n.outputs) {
      sub.tensor_values[out.name] = g.tensor_values.at(out.name);
      if (read_by_kept[out.name]) frontier.push_back(out.name);
    }
  }
  FoldConstantsResult result{program, 0, 0};
  if (frontier.empty()) return result;
  for (const auto& name : frontier) {
    Argument a;
    a.kind = Argument::Kind::Tensor;
    a.name = name;
    sub.outputs.push_back(a);
  }
  Executor executor(sub);
  std::vector<Value> values = executor.run(input_values);

  ExportedProgram& out = result.program;
  std::map<std::string, std::string> renamed;
  for (size_t k = 0; k < frontier.size(); ++k) {
    // Own storage, contiguous: the constant must not alias the state it came from.
    Tensor t = values[k].tensor.clone();
    renamed[frontier[k]] = add_constant_input(out, "folded_" + frontier[k], t).name;
  }
  auto rename = [&](Argument& a) {
    if (a.kind == Argument::Kind::Tensor && renamed.count(a.name)) a.name = renamed.at(a.name);
    for (auto& n : a.names)
      if (renamed.count(n)) n = renamed.at(n);
  };
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (folded[i]) continue;
    Node n = g.nodes[i];
    for (auto& in : n.inputs) rename(in.arg);
    kept.push_back(std::move(n));
  }
  out.graph.nodes = std::move(kept);
  for (auto& o : out.graph.outputs) rename(o);
  for (auto& spec : out.signature.output_specs) rename(spec.arg);
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (folded[i])
      for (const auto& o : g.nodes[i].outputs) out.graph.tensor_values.erase(o.name);
  result.folded_nodes = folded_count;
  result.new_constants = frontier.size();
  return result;
}

}  // namespace pt2web
