// vmap regions as loops (passes/lower_vmap.h).
#include "passes/lower_vmap.h"

#include <set>

#include "util/error.h"

namespace pt2web {

namespace {

const std::string kPrefix = "torch._functorch.predispatch.";
const std::string kIncrement = kPrefix + "_vmap_increment_nesting";
const std::string kDecrement = kPrefix + "_vmap_decrement_nesting";
const std::string kAddBatchDim = kPrefix + "_add_batch_dim";
const std::string kRemoveBatchDim = kPrefix + "_remove_batch_dim";
const std::string kLazyLoad = kPrefix + "lazy_load_decompositions";

bool is_marker(const Node& n) {
  return n.target == kIncrement || n.target == kDecrement || n.target == kAddBatchDim ||
         n.target == kRemoveBatchDim || n.target == kLazyLoad;
}

const Argument& positional(const Node& n, size_t index) {
  if (index >= n.inputs.size()) fail(ErrorCode::BadProgram, n.target, " has ", n.inputs.size(), " arguments");
  return n.inputs[index].arg;
}

int64_t int_of(const Node& n, size_t index) {
  const Argument& a = positional(n, index);
  if (a.kind != Argument::Kind::Int && !(a.kind == Argument::Kind::SymInt && a.name.empty()))
    fail(ErrorCode::BadProgram, n.target, " argument ", index, " must be an integer");
  return a.ints.at(0);
}

std::string tensor_of(const Node& n, size_t index) {
  const Argument& a = positional(n, index);
  if (a.kind != Argument::Kind::Tensor) fail(ErrorCode::BadProgram, n.target, " argument ", index, " must be a tensor");
  return a.name;
}

std::string output_of(const Node& n) {
  if (n.outputs.size() != 1 || n.outputs[0].kind != Argument::Kind::Tensor)
    fail(ErrorCode::BadProgram, n.target, " must have one tensor output");
  return n.outputs[0].name;
}

// Names an argument reads.
void read_names(const Argument& a, std::vector<std::string>& out) {
  switch (a.kind) {
    case Argument::Kind::Tensor:
    case Argument::Kind::SymInt:
    case Argument::Kind::SymBool:
    case Argument::Kind::SymFloat:
      if (!a.name.empty()) out.push_back(a.name);
      break;
    case Argument::Kind::Tensors:
    case Argument::Kind::OptionalTensors:
    case Argument::Kind::SymInts:
    case Argument::Kind::SymBools:
    case Argument::Kind::SymFloats:
      for (const auto& n : a.names)
        if (!n.empty()) out.push_back(n);
      break;
    default: break;
  }
}

// Names a node defines.
void defined_names(const Node& n, std::set<std::string>& out) {
  std::vector<std::string> names;
  for (const auto& o : n.outputs) read_names(o, names);
  out.insert(names.begin(), names.end());
}

Argument tensors_arg(std::vector<std::string> names) {
  Argument a;
  a.kind = Argument::Kind::Tensors;
  a.names = std::move(names);
  return a;
}

Argument tensor_named(const std::string& name) {
  Argument a;
  a.kind = Argument::Kind::Tensor;
  a.name = name;
  return a;
}

// Builds lowered graphs, naming new values so they never clash.
class Lowering {
 public:
  explicit Lowering(std::set<std::string> taken) : taken_(std::move(taken)) {}

  // Rewrites `graph`'s nodes, lowering every region at this level (nested
  // ones inside the bodies).
  void lower(Graph& graph, const Graph& metadata_source) {
    std::vector<Node> out;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const Node& n = graph.nodes[i];
      if (n.target == kLazyLoad) continue;
      if (n.target != kIncrement) {
        if (is_marker(n)) fail(ErrorCode::Unsupported, "vmap: ", n.target, " outside a vmap region");
        out.push_back(n);
        continue;
      }
      const size_t end = matching_decrement(graph, i);
      lower_region(graph, metadata_source, i, end, out);
      i = end;
    }
    graph.nodes = std::move(out);
  }

 private:
  static size_t matching_decrement(const Graph& graph, size_t start) {
    int depth = 0;
    for (size_t j = start; j < graph.nodes.size(); ++j) {
      if (graph.nodes[j].target == kIncrement) ++depth;
      if (graph.nodes[j].target == kDecrement && --depth == 0) return j;
    }
    fail(ErrorCode::Unsupported, "vmap: a region opened by ", kIncrement, " is never closed");
  }

  std::string fresh(const std::string& base) {
    std::string name = base;
    for (int k = 1; taken_.count(name); ++k) name = base + "_" + std::to_string(k);
    taken_.insert(name);
    return name;
  }

  // The region between nodes[open] and nodes[close] becomes nodes appended to `out`.
  void lower_region(Graph& graph, const Graph& metadata_source, size_t open, size_t close, std::vector<Node>& out) {
    int_of(graph.nodes[open], 0);  // the batch size; map_impl takes it from the mapped tensors
    Graph body;
    std::vector<std::string> mapped;  // the outer tensors mapped over, in_dim first
    std::vector<std::pair<std::string, int64_t>> results;  // (outer name, out_dim) per body output
    std::set<std::string> defined;
    int depth = 0;
    for (size_t j = open + 1; j < close; ++j) {
      const Node& n = graph.nodes[j];
      if (n.target == kIncrement) ++depth;
      if (n.target == kDecrement) --depth;
      if (depth == 0 && n.target == kAddBatchDim) {
        const std::string x = tensor_of(n, 0), b = output_of(n);
        const int64_t in_dim = int_of(n, 1);
        mapped.push_back(batch_first(graph, x, in_dim, out));
        body.inputs.push_back(tensor_named(b));
        defined.insert(b);
        continue;
      }
      if (depth == 0 && n.target == kRemoveBatchDim) {
        body.outputs.push_back(tensor_named(tensor_of(n, 0)));
        results.emplace_back(output_of(n), int_of(n, 3));
        continue;
      }
      body.nodes.push_back(n);
      defined_names(n, defined);
    }
    if (mapped.empty()) fail(ErrorCode::Unsupported, "vmap: a region with no batched input (", kAddBatchDim, ")");
    // What the body reads from outside comes in after the mapped inputs.
    std::vector<std::string> captured;
    std::set<std::string> seen;
    auto capture = [&](const std::string& name) {
      if (defined.count(name) || seen.count(name)) return;
      seen.insert(name);
      if (!graph.tensor_values.count(name))
        fail(ErrorCode::Unsupported, "vmap: the region reads ", name,
             ", which is not a tensor; only tensors can enter a vmap region from outside");
      captured.push_back(name);
    };
    for (const Node& n : body.nodes) {
      std::vector<std::string> reads;
      for (const auto& in : n.inputs) read_names(in.arg, reads);
      for (const auto& r : reads) capture(r);
    }
    for (const auto& o : body.outputs) capture(o.name);
    for (const auto& name : captured) body.inputs.push_back(tensor_named(name));
    copy_metadata(metadata_source, body);
    lower(body, metadata_source);  // nested regions

    // The map, then each result moved from dim 0 to its out_dim.
    Node map;
    map.target = "torch.ops.higher_order.map_impl";
    Argument graph_arg;
    graph_arg.kind = Argument::Kind::Graph;
    graph_arg.name = fresh("vmap_body_graph");
    graph_arg.graph = std::make_shared<Graph>(std::move(body));
    map.inputs.push_back({"", graph_arg, 1});
    map.inputs.push_back({"", tensors_arg(mapped), 1});
    map.inputs.push_back({"", tensors_arg(captured), 1});
    std::vector<std::string> stacked;
    std::vector<Node> moves;
    for (size_t k = 0; k < results.size(); ++k) {
      const auto& [name, out_dim] = results[k];
      if (out_dim == 0) {
        stacked.push_back(name);
        continue;
      }
      const TensorMeta& final_meta = graph.tensor_values.at(name);
      TensorMeta lead = final_meta;
      const int64_t rank = static_cast<int64_t>(final_meta.sizes.size());
      std::vector<int64_t> to_lead;  // permutation taking the final layout to batch-first
      to_lead.push_back(out_dim);
      for (int64_t d = 0; d < rank; ++d)
        if (d != out_dim) to_lead.push_back(d);
      // torch's result is a permuted view of the stacked tensor: its strides, read back.
      for (int64_t d = 0; d < rank; ++d) {
        lead.sizes[d] = final_meta.sizes[to_lead[d]];
        if (d < static_cast<int64_t>(final_meta.strides.size())) lead.strides[d] = final_meta.strides[to_lead[d]];
      }
      const std::string s = fresh(name + "_stacked");
      graph.tensor_values[s] = lead;
      stacked.push_back(s);
      std::vector<int64_t> back(rank);  // final dim d reads stacked dim back[d]
      for (int64_t d = 0; d < rank; ++d) back[to_lead[d]] = d;
      moves.push_back(permute_node(s, back, name));
    }
    map.outputs.push_back(tensors_arg(stacked));
    out.push_back(std::move(map));
    for (auto& m : moves) out.push_back(std::move(m));
  }

  // A tensor with dim `from` moved first: the tensor itself when it already
  // is, else a permute node appended to `out` (a view, strides permuted).
  std::string batch_first(Graph& graph, const std::string& x, int64_t from, std::vector<Node>& out) {
    const TensorMeta& meta = graph.tensor_values.at(x);
    const int64_t rank = static_cast<int64_t>(meta.sizes.size());
    if (from < 0) from += rank;
    if (from < 0 || from >= rank) fail(ErrorCode::BadProgram, "vmap: in_dim ", from, " out of range for ", x);
    if (from == 0) return x;
    std::vector<int64_t> dims;
    dims.push_back(from);
    for (int64_t d = 0; d < rank; ++d)
      if (d != from) dims.push_back(d);
    TensorMeta moved = meta;
    for (int64_t d = 0; d < rank; ++d) {
      moved.sizes[d] = meta.sizes[dims[d]];
      if (d < static_cast<int64_t>(meta.strides.size())) moved.strides[d] = meta.strides[dims[d]];
    }
    const std::string name = fresh(x + "_batch_first");
    graph.tensor_values[name] = moved;
    out.push_back(permute_node(x, dims, name));
    return name;
  }

  static Node permute_node(const std::string& x, const std::vector<int64_t>& dims, const std::string& result) {
    Node n;
    n.target = "torch.ops.aten.permute.default";
    n.inputs.push_back({"self", tensor_named(x), 1});
    Argument d;
    d.kind = Argument::Kind::Ints;
    d.ints = dims;
    n.inputs.push_back({"dims", d, 1});
    n.outputs.push_back(tensor_named(result));
    return n;
  }

  // Every value the body names gets the metadata the outer graph recorded.
  static void copy_metadata(const Graph& source, Graph& body) {
    std::vector<std::string> names;
    for (const auto& a : body.inputs) read_names(a, names);
    for (const auto& n : body.nodes) {
      for (const auto& in : n.inputs) read_names(in.arg, names);
      for (const auto& o : n.outputs) read_names(o, names);
    }
    for (const auto& name : names) {
      if (auto it = source.tensor_values.find(name); it != source.tensor_values.end()) body.tensor_values[name] = it->second;
      if (auto it = source.sym_int_values.find(name); it != source.sym_int_values.end()) body.sym_int_values[name] = it->second;
      if (auto it = source.sym_bool_values.find(name); it != source.sym_bool_values.end())
        body.sym_bool_values[name] = it->second;
      if (auto it = source.sym_float_values.find(name); it != source.sym_float_values.end())
        body.sym_float_values[name] = it->second;
    }
  }

  std::set<std::string> taken_;
};

bool graph_has_markers(const Graph& graph) {
  for (const Node& n : graph.nodes) {
    if (is_marker(n)) return true;
    for (const auto& in : n.inputs)
      if (in.arg.kind == Argument::Kind::Graph && in.arg.graph && graph_has_markers(*in.arg.graph)) return true;
  }
  return false;
}

}  // namespace

bool lower_vmap_regions(ExportedProgram& program) {
  if (!graph_has_markers(program.graph)) return false;
  std::set<std::string> taken;
  for (const auto& [name, meta] : program.graph.tensor_values) taken.insert(name);
  for (const auto& [name, value] : program.graph.sym_int_values) taken.insert(name);
  Lowering lowering(std::move(taken));
  // The graph is its own metadata source: lowering only adds entries to its
  // maps (std::map keeps references to the others valid) and swaps the node list last.
  lowering.lower(program.graph, program.graph);
  return true;
}

}  // namespace pt2web
