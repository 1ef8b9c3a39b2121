#include "runtime/input_binding.h"

#include <cmath>
#include <set>
#include <sstream>

#include "util/error.h"
#include "util/python_format.h"

namespace pt2web {

namespace {

std::string describe_leaf(const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::None: return "None";
    case PyValue::Kind::Bool: return v.b ? "True" : "False";
    case PyValue::Kind::Int: return std::to_string(v.i);
    case PyValue::Kind::Float: return python_float_repr(v.f);
    case PyValue::Kind::Str: return "'" + v.s + "'";
    case PyValue::Kind::Tensor: return "a tensor";
    default: return std::string("a ") + py_kind_name(v.kind);
  }
}

std::string describe_constant(const Argument& a) {
  return a.kind == Argument::Kind::String ? "'" + a.str + "'" : constant_repr(a);
}

bool constant_matches(const Argument& a, const PyValue& v) {
  switch (a.kind) {
    case Argument::Kind::None: return v.kind == PyValue::Kind::None;
    case Argument::Kind::Int:
      return (v.kind == PyValue::Kind::Int && v.i == a.ints[0]) ||
             (v.kind == PyValue::Kind::Float && v.f == static_cast<double>(a.ints[0]));
    case Argument::Kind::Float:
      return (v.kind == PyValue::Kind::Float && v.f == a.floats[0]) ||
             (v.kind == PyValue::Kind::Int && static_cast<double>(v.i) == a.floats[0]);
    case Argument::Kind::Bool: return v.kind == PyValue::Kind::Bool && v.b == a.bools[0];
    case Argument::Kind::String: return v.kind == PyValue::Kind::Str && v.s == a.str;
    default: return false;
  }
}

// Re-orders kwargs to the spec's key order; the key sets must match.
PyValue reorder_kwargs(const TreeSpec& kwargs_spec, const PyValue& kwargs) {
  if (kwargs.kind != PyValue::Kind::Dict) fail(ErrorCode::BadInput, "keyword arguments must be a dict");
  std::vector<std::string> expected, got;
  for (const auto& k : kwargs_spec.keys) expected.push_back(k.kind == PyValue::Kind::Str ? k.s : std::to_string(k.i));
  for (const auto& k : kwargs.keys) got.push_back(k.kind == PyValue::Kind::Str ? k.s : std::to_string(k.i));
  if (std::set<std::string>(expected.begin(), expected.end()) != std::set<std::string>(got.begin(), got.end())) {
    auto list = [](const std::vector<std::string>& names) {
      std::string s = "[";
      for (size_t i = 0; i < names.size(); ++i) s += (i ? ", '" : "'") + names[i] + "'";
      return s + "]";
    };
    fail(ErrorCode::BadInput, "keyword arguments do not match the program: got ", list(got), " but expected ",
         list(expected));
  }
  PyValue ordered = PyValue::dict();
  for (const auto& key : kwargs_spec.keys) {
    for (size_t k = 0; k < kwargs.keys.size(); ++k)
      if (kwargs.keys[k].kind == key.kind && kwargs.keys[k].s == key.s && kwargs.keys[k].i == key.i)
        ordered.set(key, kwargs.items[k]);
  }
  return ordered;
}

class SizeChecker {
 public:
  SizeChecker(const ExportedProgram& program, std::map<std::string, int64_t>& symbols)
      : program_(program), symbols_(symbols) {}

  // First pass: plain symbols bind, concrete sizes compare. `where()` names
  // the size in messages; it is only called when one is needed.
  template <typename Where>
  void bind(const Where& where, const SymInt& expected, int64_t actual) {
    if (!expected.is_symbolic) {
      if (expected.value != actual)
        fail(ErrorCode::BadInput, "Expected input at ", where(), " to be equal to ", expected.value, ", but got ",
             actual);
      return;
    }
    if (expected.expr->op() != SymExpr::Op::Symbol) {
      deferred_.push_back({where(), expected.expr, actual});
      return;
    }
    const std::string& name = expected.expr->name();
    auto it = symbols_.find(name);
    if (it != symbols_.end()) {
      if (it->second != actual)
        fail(ErrorCode::BadInput, "Expected input at ", where(), " to be equal to ", it->second, ", but got ", actual,
             " (both are the dynamic dimension ", name, ")");
      return;
    }
    check_range(where, name, actual);
    symbols_[name] = actual;
  }

  // Second pass: derived sizes such as 2*s0; a symbol that appears only in
  // derived sizes is solved from the first linear one.
  void finish() {
    for (const auto& d : deferred_) {
      auto lookup = [&](const std::string& s) -> std::optional<int64_t> {
        auto it = symbols_.find(s);
        if (it == symbols_.end()) return std::nullopt;
        return it->second;
      };
      bool all_bound = true;
      for (const auto& s : d.expr->symbols())
        if (!symbols_.count(s)) all_bound = false;
      if (!all_bound) {
        auto solved = d.expr->solve_linear(d.actual);
        if (!solved)
          fail(ErrorCode::BadInput, "Expected input at ", d.where, " to be of the form ", d.expr->to_string(),
               ", but got ", d.actual);
        check_range([&] { return d.where; }, solved->first, solved->second);
        symbols_[solved->first] = solved->second;
      }
      int64_t want = d.expr->evaluate(lookup);
      if (want != d.actual)
        fail(ErrorCode::BadInput, "Expected input at ", d.where, " to be equal to ", want, " (", d.expr->to_string(),
             "), but got ", d.actual);
    }
  }

 private:
  struct Deferred {
    std::string where;
    std::shared_ptr<const SymExpr> expr;
    int64_t actual;
  };

  template <typename Where>
  void check_range(const Where& where, const std::string& symbol, int64_t actual) {
    auto it = program_.range_constraints.find(symbol);
    if (it == program_.range_constraints.end()) return;
    const RangeConstraint& r = it->second;
    if (r.min_val && actual < *r.min_val)
      fail(ErrorCode::BadInput, "Expected input at ", where(), " to be >= ", *r.min_val, ", but got ", actual);
    if (r.max_val && actual > *r.max_val)
      fail(ErrorCode::BadInput, "Expected input at ", where(), " to be <= ", *r.max_val, ", but got ", actual);
  }

  const ExportedProgram& program_;
  std::map<std::string, int64_t>& symbols_;
  std::vector<Deferred> deferred_;
};

std::string meta_shape_string(const TensorMeta& meta) {
  std::string s = "[";
  for (size_t i = 0; i < meta.sizes.size(); ++i) s += (i ? ", " : "") + meta.sizes[i].to_string();
  return s + "]";
}

// The source a guard names an input leaf by: "L" and torch's key path from
// the forward's parameters ("*args[0]['a']" with forward(self, batch) is
// L['batch']['a']; "**kwargs['mask']" is L['mask']).
std::string guard_source(const std::string& leaf_path, const std::vector<std::string>& forward_arg_names) {
  const std::string args = "*args[", kwargs = "**kwargs";
  if (leaf_path.compare(0, args.size(), args) == 0) {
    const size_t close = leaf_path.find(']', args.size());
    const size_t index = std::stoul(leaf_path.substr(args.size(), close - args.size()));
    const std::string name = index < forward_arg_names.size() ? forward_arg_names[index] : "args_" + std::to_string(index);
    return "L['" + name + "']" + leaf_path.substr(close + 1);
  }
  if (leaf_path.compare(0, kwargs.size(), kwargs) == 0) return "L" + leaf_path.substr(kwargs.size());
  return "L" + leaf_path;
}

// Every guard torch recorded must hold (torch's ep.module() asserts them).
template <typename PathOf>
void check_guards(const ExportedProgram& program, const ModuleCallSignature& call, const std::vector<PyValue>& leaves,
                  PathOf& path_of) {
  if (program.guards.empty()) return;
  std::map<std::string, const PyValue*> by_source;
  for (size_t i = 0; i < leaves.size(); ++i) by_source[guard_source(path_of(i), call.forward_arg_names)] = &leaves[i];
  auto lookup = [&](const std::string& source) -> const PyValue* {
    auto it = by_source.find(source);
    return it == by_source.end() ? nullptr : it->second;
  };
  for (const Guard& guard : program.guards) check_guard(guard, lookup);
}

}  // namespace

BoundInputs bind_user_inputs(const ExportedProgram& program, const PyValue& args, const PyValue& kwargs,
                             TreeSpec::SequenceMatch sequences) {
  const ModuleCallSignature& call = program.call_signature();
  const TreeSpec& spec = call.in_spec;
  PyValue call_value;
  if (spec.children.size() == 2 && spec.type == "builtins.tuple") {
    PyValue ordered_kwargs = reorder_kwargs(spec.children[1], kwargs);
    // Positional arguments are a tuple in Python whatever container holds them here.
    PyValue positional = args;
    if (positional.kind == PyValue::Kind::List) positional.kind = PyValue::Kind::Tuple;
    call_value = PyValue::tuple({positional, ordered_kwargs});
  } else {
    call_value = args;
  }
  BoundInputs bound;
  bound.leaves = spec.flatten(call_value, sequences);
  // Key paths name inputs in messages: made on the first one needed.
  std::vector<std::string> paths;
  auto path_of = [&](size_t i) -> const std::string& {
    if (paths.empty()) paths = spec.leaf_paths();
    return paths[i];
  };

  std::vector<const InputSpec*> user_specs;
  for (const auto& s : program.signature.input_specs)
    if (s.kind == InputKind::UserInput) user_specs.push_back(&s);
  if (user_specs.size() != bound.leaves.size())
    fail(ErrorCode::BadProgram, "in_spec has ", bound.leaves.size(), " leaves but the program has ",
         user_specs.size(), " user inputs");

  SizeChecker sizes(program, bound.symbols);
  for (size_t i = 0; i < user_specs.size(); ++i) {
    const InputSpec& s = *user_specs[i];
    const PyValue& leaf = bound.leaves[i];
    auto path = [&] { return path_of(i); };
    if (s.is_constant_input || (s.arg.kind != Argument::Kind::Tensor && s.arg.kind != Argument::Kind::SymInt &&
                                s.arg.kind != Argument::Kind::SymFloat && s.arg.kind != Argument::Kind::SymBool)) {
      if (!constant_matches(s.arg, leaf))
        fail(ErrorCode::BadInput, "Expected input at ", path(), " to be equal to ", describe_constant(s.arg),
             ", but got ", describe_leaf(leaf));
      continue;
    }
    if (s.arg.kind == Argument::Kind::SymInt) {
      if (leaf.kind != PyValue::Kind::Int)
        fail(ErrorCode::BadInput, "Expected input at ", path(), " to be an int, but got ", describe_leaf(leaf));
      auto it = program.graph.sym_int_values.find(s.arg.name);
      if (it != program.graph.sym_int_values.end()) sizes.bind(path, it->second, leaf.i);
      continue;
    }
    if (s.arg.kind != Argument::Kind::Tensor) continue;  // symbolic floats/bools: nothing to check
    if (leaf.kind != PyValue::Kind::Tensor)
      fail(ErrorCode::BadInput, "Expected input at ", path(), " to be a tensor, but got ", describe_leaf(leaf));
    const TensorMeta& meta = program.graph.tensor_values.at(s.arg.name);
    const Tensor& t = leaf.tensor;
    if (t.dim() != static_cast<int64_t>(meta.sizes.size()))
      fail(ErrorCode::BadInput, "Unexpected number of dimensions in input at ", path(), ".shape (expected ",
           meta_shape_string(meta), ", got ", shape_to_string(t.sizes()), ")");
    if (t.dtype() != meta.dtype)
      fail(ErrorCode::BadInput, "Expected input at ", path(), " to have dtype ", dtype_name(meta.dtype),
           ", but got ", dtype_name(t.dtype()));
    for (int64_t d = 0; d < t.dim(); ++d)
      sizes.bind([&] { return path() + ".shape[" + std::to_string(d) + "]"; }, meta.sizes[d], t.sizes()[d]);
  }
  sizes.finish();
  check_guards(program, call, bound.leaves, path_of);
  return bound;
}

Value value_from_leaf(const PyValue& leaf) {
  switch (leaf.kind) {
    case PyValue::Kind::None: return Value::none();
    case PyValue::Kind::Bool: return Value::from_bool(leaf.b);
    case PyValue::Kind::Int: return Value::from_int(leaf.i);
    case PyValue::Kind::Float: return Value::from_double(leaf.f);
    case PyValue::Kind::Str: return Value::from_string(leaf.s);
    case PyValue::Kind::Tensor: return Value::from_tensor(leaf.tensor);
    default: fail(ErrorCode::BadInput, "a ", py_kind_name(leaf.kind), " cannot be a program input leaf");
  }
}

PyValue leaf_from_value(const Value& value) {
  switch (value.kind) {
    case Value::Kind::None: return PyValue::none();
    case Value::Kind::Bool: return PyValue::from_bool(value.b);
    case Value::Kind::Int: return PyValue::from_int(value.i);
    case Value::Kind::Double: return PyValue::from_float(value.d);
    case Value::Kind::String: return PyValue::from_str(value.s);
    case Value::Kind::Tensor: return PyValue::from_tensor(value.tensor);
    default: fail(ErrorCode::Internal, "a graph output of kind ", value_kind_name(value.kind), " cannot be returned");
  }
}

}  // namespace pt2web
