#include "passes/graph_builder.h"

#include "ops/registry.h"
#include "passes/dead_code.h"
#include "passes/tensor_meta_rules.h"
#include "util/error.h"

namespace pt2web {

Argument tensor_arg(const std::string& name) {
  Argument a;
  a.kind = Argument::Kind::Tensor;
  a.name = name;
  return a;
}
Argument int_arg(int64_t v) {
  Argument a;
  a.kind = Argument::Kind::Int;
  a.ints = {v};
  return a;
}
Argument ints_arg(std::vector<int64_t> v) {
  Argument a;
  a.kind = Argument::Kind::Ints;
  a.ints = std::move(v);
  return a;
}
Argument float_arg(double v) {
  Argument a;
  a.kind = Argument::Kind::Float;
  a.floats = {v};
  return a;
}
Argument bool_arg(bool v) {
  Argument a;
  a.kind = Argument::Kind::Bool;
  a.bools = {v};
  return a;
}
Argument none_arg() { return Argument(); }
Argument dtype_arg(DType dtype) {
  Argument a;
  a.kind = Argument::Kind::ScalarType;
  a.dtype = dtype;
  return a;
}

Argument layout_strided_arg() {
  Argument a;
  a.kind = Argument::Kind::Layout;
  a.ints = {7};  // torch.strided in the export schema
  return a;
}
Argument device_cpu_arg() {
  Argument a;
  a.kind = Argument::Kind::Device;
  a.str = "cpu";
  return a;
}
Argument memory_format_arg(int64_t code) {
  Argument a;
  a.kind = Argument::Kind::MemoryFormat;
  a.ints = {code};
  return a;
}

std::string op_target(const std::string& op) { return op.rfind("torch.ops.", 0) == 0 ? op : "torch.ops." + op; }

namespace {

bool is_sym_kind(Argument::Kind k) {
  return k == Argument::Kind::SymInt || k == Argument::Kind::SymBool || k == Argument::Kind::SymFloat;
}


}  // namespace

bool is_view_operator(const std::string& qualified) {
  static const std::set<std::string> views = {
      "view", "_unsafe_view", "reshape", "permute", "transpose", "t", "select", "slice", "narrow",
      "expand", "squeeze", "unsqueeze", "alias", "as_strided", "diagonal", "unflatten", "flatten",
      "split", "split_with_sizes", "chunk", "unbind", "detach", "view_as", "expand_as", "unfold",
      "movedim", "swapaxes", "real", "imag", "view_as_real", "view_as_complex"};
  return views.count(fx_base_name(qualified)) != 0;
}

GraphBuilder::GraphBuilder(const Graph& source, FxNames names, const std::map<std::string, std::string>& renamed)
    : source_(source), names_(std::move(names)) {
  out_.is_single_tensor_return = source.is_single_tensor_return;
  for (const Argument& in : source.inputs) {
    Argument renamed_in = in;
    auto new_name = [&](const std::string& n) {
      auto r = renamed.find(n);
      return r == renamed.end() ? n : r->second;
    };
    if (!in.name.empty()) renamed_in.name = new_name(in.name);
    for (auto& n : renamed_in.names) n = n.empty() ? n : new_name(n);
    out_.inputs.push_back(renamed_in);
    std::vector<std::string> ns = in.names;
    if (!in.name.empty()) ns.push_back(in.name);
    for (const std::string& n : ns) {
      if (n.empty()) continue;
      std::string to = new_name(n);
      names_.reserve(to);
      values_[n] = to;
      auto t = source.tensor_values.find(n);
      if (t != source.tensor_values.end()) out_.tensor_values[to] = t->second;
      for (auto* table : {&source.sym_int_values, &source.sym_bool_values, &source.sym_float_values}) {
        auto s = table->find(n);
        if (s == table->end()) continue;
        if (table == &source.sym_int_values) out_.sym_int_values[to] = s->second;
        else if (table == &source.sym_bool_values) out_.sym_bool_values[to] = s->second;
        else out_.sym_float_values[to] = s->second;
      }
    }
  }
}

std::string GraphBuilder::value(const std::string& source_name) const {
  if (source_name.empty()) return source_name;
  auto it = values_.find(source_name);
  if (it == values_.end()) fail(ErrorCode::BadProgram, "value '", source_name, "' is used before it is defined");
  return it->second;
}

Argument GraphBuilder::remap(const Argument& a) const {
  Argument out = a;
  using K = Argument::Kind;
  if (a.kind == K::Tensor || a.kind == K::CustomObj || (is_sym_kind(a.kind) && !a.name.empty()))
    out.name = value(a.name);
  if (a.kind == K::Tensors || a.kind == K::OptionalTensors || a.kind == K::SymInts ||
      a.kind == K::SymBools || a.kind == K::SymFloats || is_sym_kind(a.kind))
    for (auto& n : out.names) n = value(n);
  return out;
}

void GraphBuilder::bind(const std::string& source_name, const std::string& new_name) {
  values_[source_name] = new_name;
}

const TensorMeta& GraphBuilder::meta(const std::string& new_name) const {
  auto it = out_.tensor_values.find(new_name);
  if (it == out_.tensor_values.end())
    fail(ErrorCode::BadProgram, "value '", new_name, "' has no tensor metadata");
  return it->second;
}

const TensorMeta& GraphBuilder::source_meta(const std::string& source_name) const {
  auto it = source_.tensor_values.find(source_name);
  if (it == source_.tensor_values.end())
    fail(ErrorCode::BadProgram, "value '", source_name, "' has no tensor metadata");
  return it->second;
}

bool GraphBuilder::viewable(const std::string& new_name) const {
  return is_contiguous(meta(new_name)) && !layout_unknown_.count(new_name);
}

void GraphBuilder::add_output_meta(const std::string& name, const TensorMeta& meta) {
  out_.tensor_values[name] = meta;
}

std::vector<NamedArgument> GraphBuilder::name_arguments(
    const std::string& op, const std::vector<Argument>& args,
    const std::vector<std::pair<std::string, Argument>>& kwargs) const {
  const OpEntry* entry = op_table().find(qualified_op_name(op_target(op)));
  if (!entry) fail(ErrorCode::Internal, "no schema for ", op, " (a decomposition emits an unknown operator)");
  const OpSchema& schema = entry->schema;
  PT2WEB_CHECK(args.size() <= schema.arguments.size(), "too many arguments for ", op);
  std::vector<NamedArgument> out;
  for (size_t i = 0; i < args.size(); ++i) {
    NamedArgument na;
    na.name = schema.arguments[i].name;
    na.arg = args[i];
    out.push_back(std::move(na));
  }
  for (const auto& [name, arg] : kwargs) {
    PT2WEB_CHECK(schema.argument_index(name) >= 0, op, " has no argument '", name, "'");
    NamedArgument na;
    na.name = name;
    na.arg = arg;
    out.push_back(std::move(na));
  }
  return out;
}

std::vector<std::string> GraphBuilder::emit(const std::string& op, const std::vector<Argument>& args,
                                            const std::vector<TensorMeta>& outs,
                                            const std::vector<std::pair<std::string, Argument>>& kwargs) {
  Node node;
  node.target = op_target(op);
  node.inputs = name_arguments(op, args, kwargs);
  if (origin_) node.metadata = origin_->metadata;
  const OpEntry* entry = op_table().find(qualified_op_name(node.target));
  bool list_return = entry->schema.returns.size() == 1 && entry->schema.returns[0].find("[]") != std::string::npos;
  std::string node_name = names_.create(fx_base_name(node.target));
  std::vector<std::string> result;
  if (outs.size() == 1 && !list_return) {
    result.push_back(node_name);
    node.outputs.push_back(tensor_arg(node_name));
  } else {
    Argument list;
    list.kind = Argument::Kind::Tensors;
    for (size_t i = 0; i < outs.size(); ++i) {
      std::string n = names_.create("getitem");
      result.push_back(n);
      if (list_return) list.names.push_back(n);
      else node.outputs.push_back(tensor_arg(n));
    }
    if (list_return) node.outputs.push_back(list);
  }
  // Decompositions run below autograd: what they create does not require
  // grad (ATen's matmul reads the flag when it chooses how to fold).
  for (size_t i = 0; i < outs.size(); ++i) {
    TensorMeta m = outs[i];
    m.requires_grad = false;
    add_output_meta(result[i], m);
  }
  if (is_view_operator(qualified_op_name(node.target))) {
    for (const auto& in : node.inputs) {
      if (layout_unknown_.count(in.arg.name)) layout_unknown_.insert(result.begin(), result.end());
      if (!contiguous_at_run_time_.count(in.arg.name)) continue;
      // view() of a contiguous tensor, and a view that keeps the sizes (an
      // expand to the same shape), keep pt2web's contiguous layout.
      bool same_sizes = outs.size() == 1 && outs[0].sizes.size() == meta(in.arg.name).sizes.size();
      for (size_t d = 0; same_sizes && d < outs[0].sizes.size(); ++d)
        same_sizes = outs[0].sizes[d].to_string() == meta(in.arg.name).sizes[d].to_string();
      bool keeps = same_sizes || node.target == op_target("aten.view.default");
      for (const auto& r : result) (keeps ? contiguous_at_run_time_ : layout_unknown_).insert(r);
    }
  }
  out_.nodes.push_back(std::move(node));
  node_names_.push_back(node_name);
  hoisted_.push_back(false);
  return result;
}

std::string GraphBuilder::sym_size(const std::string& tensor, int64_t dim) {
  std::string key = tensor + "#" + std::to_string(dim);
  auto it = sym_sizes_.find(key);
  if (it != sym_sizes_.end()) return it->second;
  Node node;
  node.target = "torch.ops.aten.sym_size.int";
  node.inputs = name_arguments("aten.sym_size.int", {tensor_arg(tensor), int_arg(dim)}, {});
  std::string name = names_.create("sym_size_int");
  sym_values_[meta(tensor).sizes[dim].is_symbolic ? meta(tensor).sizes[dim].expr->to_string() : key] = name;
  Argument out;
  out.kind = Argument::Kind::SymInt;
  out.name = name;
  out.names = {name};
  out.ints = {0};
  node.outputs.push_back(out);
  out_.sym_int_values[name] = meta(tensor).sizes[dim];
  out_.nodes.insert(out_.nodes.begin() + hoisted_count_, std::move(node));
  node_names_.insert(node_names_.begin() + hoisted_count_, name);
  hoisted_.insert(hoisted_.begin() + hoisted_count_, true);
  ++hoisted_count_;
  sym_sizes_[key] = name;
  return name;
}

std::string GraphBuilder::sym_value(const std::shared_ptr<const SymExpr>& expr) {
  std::string want = expr->to_string();
  auto known = sym_values_.find(want);
  if (known != sym_values_.end()) return known->second;
  std::string name;
  if (expr->op() == SymExpr::Op::Symbol) {
    for (const Argument& in : out_.inputs) {
      if (in.kind != Argument::Kind::Tensor || !name.empty() || !has_meta(in.name)) continue;
      const TensorMeta& m = meta(in.name);
      for (size_t d = 0; d < m.sizes.size() && name.empty(); ++d)
        if (m.sizes[d].is_symbolic && m.sizes[d].expr->to_string() == want) name = sym_size(in.name, static_cast<int64_t>(d));
    }
  } else if (expr->op() == SymExpr::Op::Mul && expr->args().size() == 2) {
    // torch writes a product as sym * sym, or sym * int with the int second.
    const auto& x = expr->args()[0];
    const auto& y = expr->args()[1];
    bool x_int = x->op() == SymExpr::Op::Integer;
    std::string first = sym_value(x_int ? y : x);
    Argument a, b2;
    a.kind = Argument::Kind::SymInt;
    a.name = first;
    a.names = {first};
    a.ints = {0};
    if (x_int) {
      b2 = int_arg(x->value());
    } else {
      std::string second = sym_value(y);
      b2 = a;
      b2.name = second;
      b2.names = {second};
    }
    Node node;
    node.target = "_operator.mul";
    node.inputs = name_arguments("_operator.mul", {a, b2}, {});
    if (origin_) node.metadata = origin_->metadata;
    name = names_.create("mul");
    Argument out = a;
    out.name = name;
    out.names = {name};
    node.outputs.push_back(out);
    SymInt value;
    value.is_symbolic = true;
    value.expr = expr;
    out_.sym_int_values[name] = value;
    out_.nodes.push_back(std::move(node));
    node_names_.push_back(name);
    hoisted_.push_back(false);
  }
  if (name.empty())
    fail(ErrorCode::Unsupported, "the size ", want, " is not an input size or a product of them; decomposing a view to it is not supported");
  sym_values_[want] = name;
  return name;
}

Argument GraphBuilder::sym_int_arg(const SymInt& size) {
  if (!size.is_symbolic) return int_arg(size.value);
  std::string name = sym_value(size.expr);
  Argument a;
  a.kind = Argument::Kind::SymInt;
  a.name = name;
  a.names = {name};
  a.ints = {0};
  return a;
}

Argument GraphBuilder::sym_ints_arg(const std::vector<SymInt>& sizes) {
  bool symbolic = false;
  for (const auto& s : sizes) symbolic = symbolic || s.is_symbolic;
  if (!symbolic) {
    std::vector<int64_t> v;
    for (const auto& s : sizes) v.push_back(s.value);
    return ints_arg(v);
  }
  Argument a;
  a.kind = Argument::Kind::SymInts;
  for (const auto& s : sizes) {
    a.names.push_back(s.is_symbolic ? sym_value(s.expr) : "");
    a.ints.push_back(s.is_symbolic ? 0 : s.value);
    a.floats.push_back(0);
    a.bools.push_back(false);
  }
  return a;
}

void GraphBuilder::copy(const Node& node, const std::map<size_t, std::shared_ptr<Graph>>& graphs) {
  Node out;
  out.target = node.target;
  out.metadata = node.metadata;
  out.is_hop_single_tensor_return = node.is_hop_single_tensor_return;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    NamedArgument na = node.inputs[i];
    na.arg = remap(na.arg);
    auto g = graphs.find(i);
    if (g != graphs.end()) na.arg.graph = g->second;
    out.inputs.push_back(std::move(na));
  }
  std::string node_name = names_.create(fx_base_name(node.target));
  bool view = is_view_operator(qualified_op_name(node.target));
  bool reads_unknown = false;
  for (const auto& in : out.inputs) reads_unknown = reads_unknown || layout_unknown_.count(in.arg.name);
  size_t tensor_outputs = 0;
  for (const Argument& o : node.outputs)
    tensor_outputs += o.kind == Argument::Kind::Tensors ? o.names.size() : 1;
  bool single = tensor_outputs == 1 && node.outputs.size() == 1 && node.outputs[0].kind != Argument::Kind::Tensors;
  for (const Argument& o : node.outputs) {
    Argument no = o;
    auto rename = [&](const std::string& old) -> std::string {
      if (old.empty()) return old;
      std::string n = single ? node_name : names_.create("getitem");
      values_[old] = n;
      auto t = source_.tensor_values.find(old);
      if (t != source_.tensor_values.end()) {
        out_.tensor_values[n] = t->second;
        if (view ? reads_unknown : !is_contiguous(t->second)) layout_unknown_.insert(n);
      }
      for (auto* table : {&source_.sym_int_values, &source_.sym_bool_values, &source_.sym_float_values}) {
        auto s = table->find(old);
        if (s == table->end()) continue;
        if (table == &source_.sym_int_values) out_.sym_int_values[n] = s->second;
        else if (table == &source_.sym_bool_values) out_.sym_bool_values[n] = s->second;
        else out_.sym_float_values[n] = s->second;
        // A copied sym_size serves later decompositions needing that size.
        if (table == &source_.sym_int_values && s->second.is_symbolic)
          sym_values_.emplace(s->second.expr->to_string(), n);
      }
      return n;
    };
    if (!no.name.empty()) no.name = rename(o.name);
    for (auto& n : no.names) n = (!o.name.empty() && n == o.name) ? no.name : rename(n);
    out.outputs.push_back(std::move(no));
  }
  out_.nodes.push_back(std::move(out));
  node_names_.push_back(node_name);
  hoisted_.push_back(false);
}

void GraphBuilder::mutate(const std::string& source_name, const std::string& new_name) {
  bool is_input = false;
  for (const Argument& in : source_.inputs) is_input = is_input || (in.kind == Argument::Kind::Tensor && in.name == source_name);
  if (is_input) {
    bool seen = false;
    for (const auto& m : mutated_order_) seen = seen || m == source_name;
    if (!seen) mutated_order_.push_back(source_name);
  }
  values_[source_name] = new_name;
}

Graph GraphBuilder::finish(std::vector<Argument> outputs) {
  out_.outputs = std::move(outputs);
  std::vector<bool> kept = eliminate_dead_code(out_);
  std::vector<std::string> names;
  for (size_t i = 0; i < kept.size(); ++i)
    if (kept[i]) names.push_back(node_names_[i]);
  // Outputs of multi-output nodes that nothing reads.
  std::set<std::string> read;
  auto note = [&](const Argument& a) {
    if (!a.name.empty()) read.insert(a.name);
    for (const auto& n : a.names) read.insert(n);
  };
  for (const Node& n : out_.nodes)
    for (const auto& in : n.inputs) note(in.arg);
  for (const Argument& o : out_.outputs) note(o);
  for (size_t i = 0; i < out_.nodes.size(); ++i) {
    Node& n = out_.nodes[i];
    if (n.outputs.size() < 2) continue;
    for (size_t k = 0; k < n.outputs.size(); ++k) {
      Argument& o = n.outputs[k];
      if (o.kind != Argument::Kind::Tensor || read.count(o.name)) continue;
      std::string unused = names[i] + "_unused_" + std::to_string(k);
      auto meta_it = out_.tensor_values.find(o.name);
      if (meta_it != out_.tensor_values.end()) {
        TensorMeta m = meta_it->second;
        out_.tensor_values.erase(meta_it);
        out_.tensor_values[unused] = m;
      }
      o.name = unused;
    }
  }
  return std::move(out_);
}

}  // namespace pt2web
