// GraphBuilder: writes a new graph while reading an old one. Every value of
// the source graph maps to a value of the new graph; nodes are emitted with
// arguments named from the operator schema (as torch's serializer writes
// them: positional and keyword arguments given, defaults left out), fresh fx
// names (passes/fx_names.h), the tensor metadata of every output, and the
// source node's metadata (stack trace, module stack).
//
// Mutations: mutate(source_value, new_value) records that the program wrote
// new_value into source_value; later reads of source_value see new_value,
// and mutated placeholders are listed for the signature.
//
// Ownership: reads the source graph (must outlive the builder).
// Errors: Error(Internal) for operators pt2web has no schema for (a bug in a
// decomposition); Error(BadProgram) for values the source never defined.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "passes/fx_names.h"
#include "program/graph.h"

namespace pt2web {

// Argument constructors for emitted nodes.
Argument tensor_arg(const std::string& name);
Argument int_arg(int64_t v);
Argument ints_arg(std::vector<int64_t> v);
Argument float_arg(double v);
Argument bool_arg(bool v);
Argument none_arg();
Argument dtype_arg(DType dtype);
Argument layout_strided_arg();            // torch.strided
Argument device_cpu_arg();                // device(type='cpu')
Argument memory_format_arg(int64_t code);  // the export schema's code: 1 contiguous, 4 preserve
constexpr int64_t kContiguousFormat = 1;
constexpr int64_t kPreserveFormat = 4;

class GraphBuilder {
 public:
  // Starts a graph with the source's inputs, their metadata and symbolic
  // values; placeholders keep their names unless `renamed` maps them.
  // `names` should already hold names used elsewhere.
  GraphBuilder(const Graph& source, FxNames names, const std::map<std::string, std::string>& renamed = {});

  // The new value standing for a source value.
  std::string value(const std::string& source_name) const;
  Argument remap(const Argument& a) const;
  void bind(const std::string& source_name, const std::string& new_name);
  const TensorMeta& meta(const std::string& new_name) const;
  const TensorMeta& source_meta(const std::string& source_name) const;
  bool has_meta(const std::string& new_name) const { return out_.tensor_values.count(new_name) != 0; }
  // True when a reshape of this value may become a view: its recorded
  // layout is contiguous, and the layout it has when the program runs is
  // known to be the same in torch and pt2web (pt2web's kernels return
  // contiguous tensors where torch may not: outputs of copied operators with
  // another recorded layout, and views of them, are not known).
  bool viewable(const std::string& new_name) const;
  // False for values whose layout when the program runs may differ from
  // the recorded one (see viewable).
  bool layout_known(const std::string& new_name) const { return layout_unknown_.count(new_name) == 0; }
  // Values whose recorded layout is torch's (not contiguous) while
  // pt2web's kernel gives them a contiguous one: any view of them works at
  // run time, so a reshape may follow torch's choice. Views of them that
  // keep their sizes stay in this class; other views become unknown.
  void mark_contiguous_at_run_time(const std::string& new_name) { contiguous_at_run_time_.insert(new_name); }
  bool contiguous_at_run_time(const std::string& new_name) const {
    return contiguous_at_run_time_.count(new_name) != 0;
  }

  // The node whose metadata emitted nodes carry.
  void set_origin(const Node* node) { origin_ = node; }

  // Emits `op` ("aten.addmm.default") with positional `args` and keyword
  // `kwargs`; returns the output value names (getitem names for several
  // outputs or a list). `outs` gives one TensorMeta per tensor output.
  std::vector<std::string> emit(const std::string& op, const std::vector<Argument>& args,
                                const std::vector<TensorMeta>& outs,
                                const std::vector<std::pair<std::string, Argument>>& kwargs = {});
  std::string emit1(const std::string& op, const std::vector<Argument>& args, const TensorMeta& out,
                    const std::vector<std::pair<std::string, Argument>>& kwargs = {}) {
    return emit(op, args, {out}, kwargs)[0];
  }
  // Emits aten.sym_size.int(tensor, dim) at the top of the graph, once per
  // (tensor, dim); returns the sym value's name.
  std::string sym_size(const std::string& tensor, int64_t dim);
  // A SymInts argument for `sizes`: a symbolic entry is read through
  // sym_size of the input that first has that symbol as a size, and products
  // with integers or other such symbols through _operator.mul nodes.
  // Error(Unsupported) for other expressions.
  Argument sym_ints_arg(const std::vector<SymInt>& sizes);
  // One SymInt argument: an int, or the sym value standing for the expression.
  Argument sym_int_arg(const SymInt& size);

  // Copies a source node: same target and arguments (remapped), fresh names.
  // `graphs` replaces subgraph arguments (already rewritten), by argument index.
  void copy(const Node& node, const std::map<size_t, std::shared_ptr<Graph>>& graphs = {});

  void mutate(const std::string& source_name, const std::string& new_name);
  // Source placeholders written by the program, in first-write order, with
  // the value they hold at the end.
  const std::vector<std::string>& mutated_inputs() const { return mutated_order_; }

  // Finishes the graph with `outputs` (new-graph arguments): removes nodes
  // nothing reads (and that have no side effect), and names the unused
  // outputs of multi-output nodes "<node>_unused_<i>" as torch's serializer does.
  Graph finish(std::vector<Argument> outputs);

  FxNames& names() { return names_; }

 private:
  std::string sym_value(const std::shared_ptr<const SymExpr>& expr);
  void add_output_meta(const std::string& name, const TensorMeta& meta);
  std::vector<NamedArgument> name_arguments(const std::string& op, const std::vector<Argument>& args,
                                            const std::vector<std::pair<std::string, Argument>>& kwargs) const;

  const Graph& source_;
  Graph out_;
  FxNames names_;
  std::vector<std::string> node_names_;  // fx name of each emitted node
  std::vector<bool> hoisted_;            // sym_size nodes placed at the top
  size_t hoisted_count_ = 0;
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> sym_sizes_;   // "tensor#dim" -> sym value
  std::map<std::string, std::string> sym_values_;  // expression text -> sym value
  std::vector<std::string> mutated_order_;
  std::set<std::string> layout_unknown_;
  std::set<std::string> contiguous_at_run_time_;
  const Node* origin_ = nullptr;
};

// Whether an operator's result aliases its input (view, permute, slice, ...),
// by qualified name ("aten::view.default").
bool is_view_operator(const std::string& qualified);

// Operator target for a short name: "aten.addmm.default" -> "torch.ops.aten.addmm.default".
std::string op_target(const std::string& op);

}  // namespace pt2web
