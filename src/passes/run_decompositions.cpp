#include "passes/run_decompositions.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "ops/registry.h"
#include "passes/dead_code.h"
#include "util/error.h"

namespace pt2web {

namespace {

// Metadata queries torch refuses to preserve (FunctionalTensor.metadata_fns),
// and composite ops it treats as possibly aliasing or mutating.
bool is_metadata_or_maybe_mutating(const std::string& q) {
  static const std::set<std::string> ops = {
      "aten::is_contiguous.default", "aten::is_contiguous.memory_format",
      "aten::is_strides_like_format.default", "aten::is_non_overlapping_and_dense.default",
      "aten::size.default", "aten::sym_size.default", "aten::sym_size.int", "aten::stride.default",
      "aten::sym_stride.default", "aten::storage_offset.default", "aten::sym_storage_offset.default",
      "aten::numel.default", "aten::sym_numel.default", "aten::dim.default",
      "aten::dropout.default", "aten::batch_norm.default", "aten::native_batch_norm.default",
      "aten::_batch_norm_impl_index.default", "aten::atleast_1d.Sequence", "aten::atleast_2d.Sequence",
      "aten::atleast_3d.Sequence"};
  return ops.count(q) != 0;
}

std::string normalize_op(const std::string& op) {
  if (op.find("::") != std::string::npos) return op;
  return qualified_op_name(op_target(op));
}

// The functional overload for an in-place one ("aten::add_.Tensor" -> "aten::add.Tensor").
std::string functional_variant(const std::string& q) {
  size_t colons = q.find("::");
  size_t dot = q.find('.', colons);
  std::string name = q.substr(colons + 2, dot - colons - 2);
  if (name.size() < 2 || name.back() != '_' || name[name.size() - 2] == '_') return "";
  std::string f = q.substr(0, colons + 2) + name.substr(0, name.size() - 1) + q.substr(dot);
  return op_table().find(f) ? f : "";
}

class Decomposer {
 public:
  Decomposer(const DecompositionTable& table, const std::set<std::string>& preserve,
             const GraphSignature* signature)
      : table_(table), preserve_(preserve), signature_(signature) {}

  // Rewrites `graph`; for the top-level graph also returns the mutated placeholders.
  Graph rewrite(const Graph& graph, FxNames names, std::vector<std::pair<std::string, std::string>>* mutations,
                const std::map<std::string, std::string>& renamed = {}) {
    GraphBuilder b(graph, std::move(names), renamed);
    for (const Node& node : graph.nodes) rewrite_node(b, node);
    std::vector<Argument> outputs;
    if (mutations) {
      for (const std::string& input : b.mutated_inputs()) {
        mutations->emplace_back(input, b.value(input));
        outputs.push_back(tensor_arg(b.value(input)));
      }
    } else if (!b.mutated_inputs().empty()) {
      fail(ErrorCode::Unsupported, "a subgraph writes into its input '", b.mutated_inputs()[0],
           "'; pt2web cannot functionalize mutations inside higher-order operators");
    }
    for (const Argument& o : graph.outputs) outputs.push_back(b.remap(o));
    return b.finish(std::move(outputs));
  }

 private:
  void rewrite_node(GraphBuilder& b, const Node& node) {
    b.set_origin(&node);
    std::string q = qualified_op_name(node.target);
    if (!preserve_.count(q)) {
      auto it = table_.find(q);
      if (it != table_.end() && it->second(b, node)) return;
      std::string functional = functional_variant(q);
      if (!functional.empty()) {
        functionalize(b, node, functional);
        return;
      }
    }
    std::map<size_t, std::shared_ptr<Graph>> graphs;
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (node.inputs[i].arg.kind == Argument::Kind::Graph && node.inputs[i].arg.graph) {
        FxNames sub_names;
        graphs[i] = std::make_shared<Graph>(rewrite(*node.inputs[i].arg.graph, sub_names, nullptr));
      }
    b.copy(node, graphs);
    note_view(b, q, node);
  }

  void note_view(GraphBuilder& b, const std::string& q, const Node& node) {
    if (!is_view_operator(q)) return;
    for (const Argument& o : node.outputs) {
      if (!o.name.empty()) views_.insert(b.value(o.name));
      for (const auto& n : o.names)
        if (!n.empty()) views_.insert(b.value(n));
    }
  }

  // In-place op: the functional op on the same arguments, whose result
  // replaces the written argument (schema argument 0, "self").
  void functionalize(GraphBuilder& b, const Node& node, const std::string& functional) {
    const OpEntry* entry = op_table().find(qualified_op_name(node.target));
    std::string written;
    for (size_t i = 0; i < entry->schema.arguments.size(); ++i)
      if (entry->schema.arguments[i].is_mutable) {
        const Argument* a = node_input(node, entry->schema.arguments[i].name);
        if (a && a->kind == Argument::Kind::Tensor) written = a->name;
      }
    if (written.empty()) fail(ErrorCode::Unsupported, node_label(node), ": cannot tell which argument it writes");
    if (views_.count(b.value(written)))
      fail(ErrorCode::Unsupported, node_label(node), " writes into a view ('", written,
           "'); pt2web cannot functionalize writes through views yet");
    if (signature_)
      for (const auto& spec : signature_->input_specs)
        if (spec.arg.name == written && spec.kind == InputKind::Parameter)
          fail(ErrorCode::Unsupported, node_label(node), " writes into parameter '", spec.target,
               "'; torch does not allow parameter mutation in an exported program");
    Node copy = node;
    std::string short_name = functional.substr(0, functional.find("::")) + "." + functional.substr(functional.find("::") + 2);
    copy.target = op_target(short_name);
    b.copy(copy);
    std::string result = b.value(node.outputs.at(0).name);
    b.mutate(written, result);
  }

  const DecompositionTable& table_;
  const std::set<std::string>& preserve_;
  const GraphSignature* signature_;
  std::set<std::string> views_;
};

// torch's retrace names lifted state after its FQN: "p_" / "b_" / "c_" /
// "obj_" + the lower-cased target with non-alphanumerics as "_", suffixed
// _1, _2, ... on collision (_rename_without_collisions); user inputs keep theirs.
std::map<std::string, std::string> placeholder_names(const GraphSignature& signature) {
  std::map<std::string, std::string> renamed;
  std::set<std::string> taken;
  for (const auto& spec : signature.input_specs)
    if (spec.kind == InputKind::UserInput) taken.insert(spec.arg.name);
  for (const auto& spec : signature.input_specs) {
    const char* prefix = spec.kind == InputKind::Parameter        ? "p_"
                         : spec.kind == InputKind::Buffer         ? "b_"
                         : spec.kind == InputKind::ConstantTensor ? "c_"
                         : spec.kind == InputKind::CustomObj      ? "obj_"
                                                                  : nullptr;
    if (!prefix || spec.arg.name.empty()) continue;
    std::string base = prefix;
    for (char c : spec.target) base += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
    std::string name = base;
    for (int n = 1; taken.count(name); ++n) name = base + "_" + std::to_string(n);
    taken.insert(name);
    renamed[spec.arg.name] = name;
  }
  return renamed;
}

// torch's retrace lists placeholders as parameters, buffers, constants,
// custom objects, then user inputs (tokens first): reorder specs and graph inputs.
void order_inputs(ExportedProgram& program) {
  auto rank = [](InputKind k) {
    switch (k) {
      case InputKind::Token: return 0;
      case InputKind::Parameter: return 1;
      case InputKind::Buffer: return 2;
      case InputKind::ConstantTensor: return 3;
      case InputKind::CustomObj: return 4;
      case InputKind::UserInput: return 5;
    }
    return 5;
  };
  auto& specs = program.signature.input_specs;
  if (specs.size() != program.graph.inputs.size()) return;
  std::vector<size_t> order(specs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rank(specs[a].kind) < rank(specs[b].kind); });
  std::vector<InputSpec> new_specs;
  std::vector<Argument> new_inputs;
  for (size_t i : order) {
    new_specs.push_back(specs[i]);
    new_inputs.push_back(program.graph.inputs[i]);
  }
  specs = std::move(new_specs);
  program.graph.inputs = std::move(new_inputs);
}

}  // namespace

void check_preservable(const std::string& op) {
  std::string q = normalize_op(op);
  const OpEntry* entry = op_table().find(q);
  if (!entry) fail(ErrorCode::BadInput, "cannot preserve ", q, ": pt2web has no kernel for it");
  if (is_metadata_or_maybe_mutating(q))
    fail(ErrorCode::BadInput, "cannot preserve ", q, ": it is a metadata operator or may alias or mutate its inputs");
  bool aliasing = false, mutating = false;
  for (const auto& a : entry->schema.arguments) mutating = mutating || a.is_mutable;
  aliasing = entry->schema.text.find("Tensor(") != std::string::npos;
  if (mutating || aliasing)
    fail(ErrorCode::BadInput, "cannot preserve ", q, ": it ", mutating ? "mutates" : "aliases",
         " its inputs, so it is not functional");
}

ExportedProgram run_decompositions(const ExportedProgram& program, const DecompositionOptions& options) {
  DecompositionTable defaults;
  const DecompositionTable* table = options.table;
  if (!table) {
    defaults = core_aten_decompositions();
    table = &defaults;
  }
  std::set<std::string> preserve;
  for (const std::string& op : options.preserve) {
    check_preservable(op);
    preserve.insert(normalize_op(op));
  }
  Decomposer decomposer(*table, preserve, &program.signature);
  std::vector<std::pair<std::string, std::string>> mutations;
  ExportedProgram out = program;
  std::map<std::string, std::string> renamed = placeholder_names(program.signature);
  out.graph = decomposer.rewrite(program.graph, FxNames(), &mutations, renamed);
  for (auto& spec : out.signature.input_specs) {
    auto r = renamed.find(spec.arg.name);
    if (r != renamed.end()) spec.arg.name = r->second;
  }

  // Signature: input specs keep their placeholders; outputs are renamed and
  // new mutation outputs come first, buffers before user inputs (input order).
  std::vector<OutputSpec> specs;
  size_t k = 0;
  for (const auto& spec : program.signature.input_specs) {
    for (const auto& [input, value] : mutations) {
      if (spec.arg.name != input) continue;  // mutations name source placeholders
      OutputSpec o;
      o.arg = tensor_arg(value);
      if (spec.kind == InputKind::Buffer) {
        o.kind = OutputKind::BufferMutation;
        o.target = spec.target;
      } else if (spec.kind == InputKind::UserInput) {
        o.kind = OutputKind::UserInputMutation;
        o.target = input;
      } else {
        fail(ErrorCode::Unsupported, "the program writes into ", input_kind_name(spec.kind), " '", input,
             "'; only buffers and user inputs can be mutated");
      }
      specs.push_back(o);
      ++k;
    }
  }
  PT2WEB_CHECK(k == mutations.size(), "a mutated placeholder has no input spec");
  // The graph's outputs are the mutations (in first-write order) then the
  // original outputs: put them in signature order.
  std::vector<Argument> outputs;
  for (const auto& s : specs) outputs.push_back(s.arg);
  for (size_t i = 0; i < program.signature.output_specs.size(); ++i) {
    OutputSpec o = program.signature.output_specs[i];
    o.arg = out.graph.outputs.at(mutations.size() + i);
    specs.push_back(o);
    outputs.push_back(o.arg);
  }
  out.graph.outputs = outputs;
  out.signature.output_specs = specs;
  out.dialect = "ATEN";
  order_inputs(out);
  verify_program(out);
  return out;
}

}  // namespace pt2web
