#include "tie_order_compare.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/loaded_program.h"

namespace pt2web::testing {

namespace {

// One sort whose order of ties torch leaves unspecified: its input and dim.
struct UnstableSort {
  Tensor input;
  int64_t dim = -1;
};

const NamedArgument* find_input(const Node& node, const std::string& name) {
  for (const auto& in : node.inputs)
    if (in.name == name) return &in;
  return nullptr;
}

bool promises_stable_order(const Node& node) {
  const std::string& op = node.target;
  auto ends_with = [&](const char* suffix) {
    std::string s(suffix);
    return op.size() >= s.size() && op.compare(op.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with("aten.sort.default") || ends_with("aten.argsort.default") || ends_with("aten.topk.default"))
    return false;
  if (ends_with("aten.sort.stable") || ends_with("aten.argsort.stable")) {
    const NamedArgument* stable = find_input(node, "stable");
    return stable && stable->arg.kind == Argument::Kind::Bool && !stable->arg.bools.empty() && stable->arg.bools[0];
  }
  return true;
}

std::vector<UnstableSort> unstable_sorts(const LoadedProgram& session, const Case& c) {
  std::vector<UnstableSort> sorts;
  const ExportedProgram& program = session.program();
  std::vector<std::string> placeholders = program.signature.user_inputs();
  BoundInputs bound;
  try {
    bound = bind_user_inputs(program, c.args, c.kwargs);
  } catch (const std::exception&) {
    return sorts;  // the inputs do not bind: nothing to forgive
  }
  for (const Node& node : program.graph.nodes) {
    if (promises_stable_order(node)) continue;
    const NamedArgument* self = find_input(node, "self");
    if (!self || self->arg.kind != Argument::Kind::Tensor) continue;
    for (size_t k = 0; k < placeholders.size() && k < bound.leaves.size(); ++k) {
      if (placeholders[k] != self->arg.name || bound.leaves[k].kind != PyValue::Kind::Tensor) continue;
      UnstableSort sort;
      sort.input = bound.leaves[k].tensor;
      const NamedArgument* dim = find_input(node, "dim");
      if (dim && dim->arg.kind == Argument::Kind::Int && !dim->arg.ints.empty()) sort.dim = dim->arg.ints[0];
      sorts.push_back(sort);
    }
  }
  return sorts;
}

// Whether indices `got` and `want` pick the same values out of `input` along `dim`.
bool select_same_values(const Tensor& input, int64_t dim, const Tensor& got, const Tensor& want) {
  if (input.dim() == 0 || got.dim() != input.dim() || got.sizes() != want.sizes()) return false;
  if (dim < 0) dim += input.dim();
  if (dim < 0 || dim >= input.dim()) return false;
  for (int64_t d = 0; d < input.dim(); ++d)
    if (d != dim && got.size(d) != input.size(d)) return false;
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < input.dim(); ++d) inner *= input.size(d);
  const int64_t picked = got.size(dim), length = input.size(dim);
  for (int64_t flat = 0; flat < got.numel(); ++flat) {
    const int64_t i = flat % inner, outer = flat / (inner * picked);
    const int64_t g = got.item_as_int(flat), w = want.item_as_int(flat);
    if (g < 0 || g >= length || w < 0 || w >= length) return false;
    const double a = input.item_as_double((outer * length + g) * inner + i);
    const double b = input.item_as_double((outer * length + w) * inner + i);
    if (!(a == b || (std::isnan(a) && std::isnan(b)))) return false;
  }
  return true;
}

// compare() with integer tensors accepted when some unstable sort explains the difference.
std::string compare_tree(const PyValue& got, const PyValue& want, const Case& c, const std::vector<UnstableSort>& sorts,
                         double* max_error, const std::string& path) {
  if ((want.kind == PyValue::Kind::Tuple || want.kind == PyValue::Kind::List) && got.kind == want.kind &&
      got.items.size() == want.items.size()) {
    for (size_t i = 0; i < want.items.size(); ++i) {
      std::string item = path + "[" + std::to_string(i) + "]";
      std::string r = compare_tree(got.items[i], want.items[i], c, sorts, max_error, item);
      if (!r.empty()) return r;
    }
    return "";
  }
  double error = 0;  // index differences forgiven below are no error
  std::string r = compare(got, want, c.rtol, c.atol, &error, path);
  bool forgiven = !r.empty() && want.kind == PyValue::Kind::Tensor && got.kind == PyValue::Kind::Tensor &&
                  want.tensor.dtype() == DType::Int64 && got.tensor.dtype() == DType::Int64;
  if (forgiven) {
    forgiven = false;
    for (const UnstableSort& sort : sorts)
      forgiven = forgiven || select_same_values(sort.input, sort.dim, got.tensor, want.tensor);
  }
  if (forgiven) return "";
  if (max_error) *max_error = std::max(*max_error, error);
  return r;
}

}  // namespace

std::string compare_allowing_tie_order(const LoadedProgram& session, const Case& c, const PyValue& got, double* max_error) {
  std::vector<UnstableSort> sorts = unstable_sorts(session, c);
  if (sorts.empty()) return compare(got, c.expected, c.rtol, c.atol, max_error);
  return compare_tree(got, c.expected, c, sorts, max_error, "out");
}

}  // namespace pt2web::testing
