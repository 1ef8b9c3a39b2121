// tril and triu as torch/_refs writes them: a [rows, cols] boolean mask from
// two aranges (col - row <= diagonal for tril, >= for triu), then
// where(mask, x, 0), or logical_and for a boolean x.
#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"
#include "util/error.h"

namespace pt2web {

namespace {

bool triangle(GraphBuilder& b, const Node& node, bool lower) {
  std::string out = emit_triangle(b, input_tensor(b, node, "self"), input_int(node, "diagonal", 0), lower);
  if (out.empty()) return false;
  bind_outputs(b, node, {out});
  return true;
}

bool tril(GraphBuilder& b, const Node& node) { return triangle(b, node, true); }
bool triu(GraphBuilder& b, const Node& node) { return triangle(b, node, false); }

}  // namespace

std::string emit_arange(GraphBuilder& b, int64_t start, const SymInt& end) {
  SymInt length = end;
  if (!end.is_symbolic) length = sym_const(end.value - start);
  else if (start != 0)
    fail(ErrorCode::Unsupported, "arange from ", start, " to the symbolic size ", end.to_string(),
         " in a decomposition: its length has no symbol to stand for it");
  return b.emit1("aten.arange.start_step", {int_arg(start), b.sym_int_arg(end)},
                 contiguous_meta(DType::Int64, {length}),
                 {{"layout", layout_strided_arg()}, {"device", device_cpu_arg()}, {"pin_memory", bool_arg(false)}});
}

std::string emit_triangle(GraphBuilder& b, const std::string& x, int64_t diagonal, bool lower) {
  const TensorMeta m = b.meta(x);
  size_t rank = m.sizes.size();
  if (rank < 2) return "";
  const SymInt& rows = m.sizes[rank - 2];
  const SymInt& cols = m.sizes[rank - 1];
  for (const auto& s : m.sizes)
    if (sym_is(s, 0)) return "";  // torch clones an empty input instead
  std::string col = emit_arange(b, 0, cols);
  std::string row_range = emit_arange(b, 0, rows);
  col = b.emit1("aten.unsqueeze.default", {tensor_arg(col), int_arg(-2)}, unsqueezed_meta(b.meta(col), -2));
  std::string row = b.emit1("aten.unsqueeze.default", {tensor_arg(row_range), int_arg(-1)},
                            unsqueezed_meta(b.meta(row_range), -1));
  std::string offset = b.emit1("aten.sub.Tensor", {tensor_arg(col), tensor_arg(row)},
                               contiguous_meta(DType::Int64, {rows, cols}));
  std::string mask = b.emit1(lower ? "aten.le.Scalar" : "aten.ge.Scalar", {tensor_arg(offset), int_arg(diagonal)},
                             contiguous_meta(DType::Bool, {rows, cols}));
  if (m.dtype == DType::Bool)
    return b.emit1("aten.logical_and.default", {tensor_arg(mask), tensor_arg(x)}, contiguous_meta(DType::Bool, m.sizes));
  std::string zero = b.emit1("aten.scalar_tensor.default", {int_arg(0)}, contiguous_meta(m.dtype, {}),
                             {{"dtype", dtype_arg(m.dtype)}, {"layout", layout_strided_arg()}, {"device", device_cpu_arg()}});
  return b.emit1("aten.where.self", {tensor_arg(mask), tensor_arg(x), tensor_arg(zero)}, contiguous_meta(m.dtype, m.sizes));
}

void add_triangular_decompositions(DecompositionTable& t) {
  t["aten::tril.default"] = tril;
  t["aten::triu.default"] = triu;
}

}  // namespace pt2web
