#include "vector_sign_alignment.h"

#include <map>

#include "runtime/loaded_program.h"

namespace pt2web::testing {

namespace {

enum class VectorLayout { Columns, Rows };

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Graph value name -> how its vectors lie, for the outputs of sign-free decompositions.
std::map<std::string, VectorLayout> sign_free_values(const Graph& graph) {
  std::map<std::string, VectorLayout> values;
  auto mark = [&](const Node& node, size_t index, VectorLayout layout) {
    if (index < node.outputs.size() && node.outputs[index].kind == Argument::Kind::Tensor)
      values[node.outputs[index].name] = layout;
  };
  for (const Node& node : graph.nodes) {
    const std::string& op = node.target;
    if (ends_with(op, "aten.linalg_eigh.default") || ends_with(op, "aten._linalg_eigh.default")) {
      mark(node, 1, VectorLayout::Columns);
    } else if (ends_with(op, "aten.linalg_svd.default") || ends_with(op, "aten._linalg_svd.default")) {
      mark(node, 0, VectorLayout::Columns);
      mark(node, 2, VectorLayout::Rows);
    } else if (ends_with(op, "aten.svd.default")) {
      mark(node, 0, VectorLayout::Columns);
      mark(node, 2, VectorLayout::Columns);
    }
  }
  return values;
}

void flatten(const PyValue& v, std::vector<const PyValue*>& leaves) {
  if (v.kind == PyValue::Kind::Tuple || v.kind == PyValue::Kind::List || v.kind == PyValue::Kind::Dict) {
    for (const auto& item : v.items) flatten(item, leaves);
    return;
  }
  leaves.push_back(&v);
}

void flatten_mutable(PyValue& v, std::vector<PyValue*>& leaves) {
  if (v.kind == PyValue::Kind::Tuple || v.kind == PyValue::Kind::List || v.kind == PyValue::Kind::Dict) {
    for (auto& item : v.items) flatten_mutable(item, leaves);
    return;
  }
  leaves.push_back(&v);
}

// `got` with each vector negated where its dot product with torch's is negative.
Tensor aligned(const Tensor& got, const Tensor& want, VectorLayout layout) {
  if (got.sizes() != want.sizes() || got.dim() < 2) return got;
  if (got.dtype() != DType::Float32 && got.dtype() != DType::Float64) return got;
  Tensor out = Tensor::empty(DType::Float64, got.sizes());
  out.copy_from(got);
  const Tensor reference = want.to(DType::Float64);
  double* o = out.data<double>();
  const double* r = reference.data<double>();
  const int64_t rows = got.size(-2), cols = got.size(-1), count = got.numel() / std::max<int64_t>(rows * cols, 1);
  const bool by_columns = layout == VectorLayout::Columns;
  const int64_t vectors = by_columns ? cols : rows, length = by_columns ? rows : cols;
  for (int64_t b = 0; b < count; ++b)
    for (int64_t v = 0; v < vectors; ++v) {
      auto at = [&](int64_t k) { return b * rows * cols + (by_columns ? k * cols + v : v * cols + k); };
      double dot = 0;
      for (int64_t k = 0; k < length; ++k) dot += o[at(k)] * r[at(k)];
      if (dot < 0)
        for (int64_t k = 0; k < length; ++k) o[at(k)] = -o[at(k)];
    }
  return out.to(got.dtype());
}

}  // namespace

PyValue align_vector_signs(const LoadedProgram& session, const PyValue& want, const PyValue& got) {
  const ExportedProgram& program = session.program();
  const std::map<std::string, VectorLayout> sign_free = sign_free_values(program.graph);
  if (sign_free.empty()) return got;
  const std::vector<std::string> outputs = program.signature.user_outputs();
  std::vector<const PyValue*> want_leaves;
  flatten(want, want_leaves);
  PyValue result = got;
  std::vector<PyValue*> got_leaves;
  flatten_mutable(result, got_leaves);
  if (got_leaves.size() != want_leaves.size() || got_leaves.size() != outputs.size()) return got;
  for (size_t k = 0; k < outputs.size(); ++k) {
    auto it = sign_free.find(outputs[k]);
    if (it == sign_free.end() || got_leaves[k]->kind != PyValue::Kind::Tensor ||
        want_leaves[k]->kind != PyValue::Kind::Tensor)
      continue;
    got_leaves[k]->tensor = aligned(got_leaves[k]->tensor, want_leaves[k]->tensor, it->second);
  }
  return result;
}

}  // namespace pt2web::testing
