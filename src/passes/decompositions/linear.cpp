// linear and t: as ATen's CompositeImplicitAutograd kernels write them
// (aten/src/ATen/native/Linear.cpp, LinearAlgebra.cpp).
#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

bool linear(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "input");
  std::string w = input_tensor(b, node, "weight");
  std::string bias = input_tensor(b, node, "bias");
  const TensorMeta& xm = b.meta(x);
  const TensorMeta& out = output_meta(b, node);
  if (b.meta(w).sizes.size() != 2) return false;
  size_t rank = xm.sizes.size();
  if (rank == 0) return false;  // ATen refuses a 0-d input
  if (rank == 2 && !bias.empty()) {
    std::string wt = emit_matrix_transpose(b, w);
    bind_outputs(b, node, {b.emit1("aten.addmm.default", {tensor_arg(bias), tensor_arg(x), tensor_arg(wt)}, out)});
    return true;
  }
  if (rank == 2) {
    std::string wt = emit_matrix_transpose(b, w);
    bind_outputs(b, node, {b.emit1("aten.mm.default", {tensor_arg(x), tensor_arg(wt)}, out)});
    return true;
  }
  // A contiguous input with a 1-d bias (_flatten_nd_linear): reshape to
  // [rows, features], addmm, view back.
  if (!bias.empty() && b.meta(bias).sizes.size() == 1 && is_contiguous(xm)) {
    SymInt rows = sym_const(1);
    for (size_t i = 0; i + 1 < rank; ++i) rows = sym_mul(rows, xm.sizes[i]);
    std::string x2 = reshape_value(b, x, {rows, xm.sizes[rank - 1]});
    std::string wt = emit_matrix_transpose(b, w);
    std::string mm = b.emit1("aten.addmm.default", {tensor_arg(bias), tensor_arg(x2), tensor_arg(wt)},
                             contiguous_meta(out.dtype, {rows, out.sizes.back()}));
    bind_outputs(b, node, {b.emit1("aten.view.default", {tensor_arg(mm), b.sym_ints_arg(out.sizes)}, out)});
    return true;
  }
  // Otherwise matmul(input, weight.t()), then the bias added.
  std::string product = emit_matmul(b, x, emit_matrix_transpose(b, w));
  if (product.empty()) return false;
  if (!bias.empty()) product = b.emit1("aten.add.Tensor", {tensor_arg(product), tensor_arg(bias)}, out);
  bind_outputs(b, node, {product});
  return true;
}

bool t(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  if (b.meta(x).sizes.size() < 2) {
    bind_outputs(b, node, {x});  // t of a 0-d or 1-d tensor is the tensor itself
    return true;
  }
  bind_outputs(b, node, {emit_matrix_transpose(b, x)});
  return true;
}

}  // namespace

void add_linear_decompositions(DecompositionTable& t_) {
  t_["aten::linear.default"] = linear;
  t_["aten::t.default"] = t;
}

}  // namespace pt2web
