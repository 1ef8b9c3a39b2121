// View and copy composites: flatten, unflatten, reshape, contiguous,
// transpose, squeeze, narrow, split, chunk, to.dtype, pixel_shuffle. A reshape of a
// contiguous tensor is a view; of another layout, a contiguous clone then a
// view (ATen's reshape).
#include <algorithm>

#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

std::string reshaped(GraphBuilder& b, const std::string& x, const TensorMeta& out) {
  return reshape_value(b, x, out.sizes);
}

bool flatten(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  size_t rank = b.meta(x).sizes.size();
  int64_t start = input_int(node, "start_dim", 0), end = input_int(node, "end_dim", -1);
  if (rank == 0 || wrap_dim(start, rank) == wrap_dim(end, rank)) {
    bind_outputs(b, node, {x});  // nothing to merge: flatten returns its input
    return true;
  }
  bind_outputs(b, node, {reshaped(b, x, output_meta(b, node))});
  return true;
}

bool reshape(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  bind_outputs(b, node, {reshaped(b, x, output_meta(b, node))});
  return true;
}

// unflatten is a view to the output's sizes.
bool unflatten(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  const TensorMeta& out = output_meta(b, node);
  bind_outputs(b, node, {b.emit1("aten.view.default", {tensor_arg(x), b.sym_ints_arg(out.sizes)}, out)});
  return true;
}

bool contiguous(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  if (b.viewable(x)) {
    bind_outputs(b, node, {x});
    return true;
  }
  bind_outputs(b, node, {b.emit1("aten.clone.default", {tensor_arg(x)}, output_meta(b, node),
                                 {{"memory_format", memory_format_arg(kContiguousFormat)}})});
  return true;
}

bool transpose(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  size_t rank = b.meta(x).sizes.size();
  if (rank == 0) {
    bind_outputs(b, node, {x});
    return true;
  }
  std::vector<int64_t> perm;
  for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(i));
  std::swap(perm[wrap_dim(input_int(node, "dim0", 0), rank)], perm[wrap_dim(input_int(node, "dim1", 0), rank)]);
  bind_outputs(b, node, {b.emit1("aten.permute.default", {tensor_arg(x), ints_arg(perm)},
                                 permuted_meta(b.meta(x), perm))});
  return true;
}

bool squeeze_dim(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  int64_t dim = input_int(node, "dim", 0);
  bind_outputs(b, node, {b.emit1("aten.squeeze.dims", {tensor_arg(x), ints_arg({dim})},
                                 squeezed_meta(b.meta(x), {dim}))});
  return true;
}

bool to_dtype(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  const Argument* dtype = node_input(node, "dtype");
  if (!dtype || dtype->kind != Argument::Kind::ScalarType) return false;
  if (dtype->dtype == b.meta(x).dtype && !input_bool(node, "copy", false)) {
    bind_outputs(b, node, {x});
    return true;
  }
  bind_outputs(b, node, {b.emit1("aten._to_copy.default", {tensor_arg(x)}, output_meta(b, node),
                                 {{"dtype", dtype_arg(dtype->dtype)}})});
  return true;
}

bool squeeze_all(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  std::vector<int64_t> dims;
  const TensorMeta& m = b.meta(x);
  for (size_t i = 0; i < m.sizes.size(); ++i) {
    if (m.sizes[i].is_symbolic) return false;  // torch guards on the size: keep the node
    if (m.sizes[i].value == 1) dims.push_back(static_cast<int64_t>(i));
  }
  bind_outputs(b, node, {b.emit1("aten.squeeze.dims", {tensor_arg(x), ints_arg(dims)}, squeezed_meta(m, dims))});
  return true;
}

// narrow(x, dim, start, length) -> slice(x, dim, start, start + length)
bool narrow(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  int64_t dim = input_int(node, "dim", 0), start = input_int(node, "start", 0), length = input_int(node, "length", 0);
  bind_outputs(b, node, {b.emit1("aten.slice.Tensor", {tensor_arg(x), int_arg(dim), int_arg(start), int_arg(start + length)},
                                 output_meta(b, node))});
  return true;
}

// split(x, size, dim) and chunk(x, chunks, dim) -> split_with_sizes(x, sizes, dim)
// with the sizes ATen computes from the (static) dimension.
bool split_into(GraphBuilder& b, const Node& node, bool chunks) {
  std::string x = input_tensor(b, node, "self");
  const TensorMeta& m = b.meta(x);
  int64_t dim_arg = input_int(node, "dim", 0);
  int64_t dim = wrap_dim(dim_arg, m.sizes.size());
  if (m.sizes[dim].is_symbolic) return false;
  int64_t total = m.sizes[dim].value;
  int64_t piece = chunks ? (total + input_int(node, "chunks", 1) - 1) / std::max<int64_t>(input_int(node, "chunks", 1), 1)
                         : input_int(node, "split_size", 1);
  if (piece <= 0) return false;
  std::vector<int64_t> sizes;
  for (int64_t at = 0; at < total || (total == 0 && sizes.empty()); at += piece) sizes.push_back(std::min(piece, total - at));
  std::vector<TensorMeta> outs;
  for (size_t i = 0; i < sizes.size(); ++i) outs.push_back(output_meta(b, node, i));
  std::vector<Argument> args = {tensor_arg(x), ints_arg(sizes)};
  if (dim_arg != 0) args.push_back(int_arg(dim_arg));
  bind_outputs(b, node, b.emit("aten.split_with_sizes.default", args, outs));
  return true;
}

bool split(GraphBuilder& b, const Node& node) { return split_into(b, node, false); }
bool chunk(GraphBuilder& b, const Node& node) { return split_into(b, node, true); }

// pixel_shuffle as torch/_refs writes it: view to [..., C, r, r, H, W],
// permute to [..., C, H, r, W, r], reshape to [..., C, H*r, W*r], then a
// contiguous clone.
bool pixel_shuffle(GraphBuilder& b, const Node& node) {
  std::string x = input_tensor(b, node, "self");
  const TensorMeta xm = b.meta(x);
  int64_t r = input_int(node, "upscale_factor", 1);
  size_t rank = xm.sizes.size();
  if (rank < 3 || r <= 0 || xm.sizes[rank - 3].is_symbolic || !b.layout_known(x)) return false;
  std::vector<SymInt> split(xm.sizes.begin(), xm.sizes.end() - 3);
  split.insert(split.end(), {sym_const(xm.sizes[rank - 3].value / (r * r)), sym_const(r), sym_const(r),
                             xm.sizes[rank - 2], xm.sizes[rank - 1]});
  if (!view_strides_of(xm, split)) return false;
  std::string v = b.emit1("aten.view.default", {tensor_arg(x), b.sym_ints_arg(split)}, viewed_meta(xm, split));
  std::vector<int64_t> perm;
  size_t n = rank - 3;
  for (size_t i = 0; i < n; ++i) perm.push_back(static_cast<int64_t>(i));
  for (size_t d : {n, n + 3, n + 1, n + 4, n + 2}) perm.push_back(static_cast<int64_t>(d));
  std::string p = emit_permute(b, v, perm);
  const TensorMeta& out = output_meta(b, node);
  std::string shuffled = reshape_value(b, p, out.sizes);
  bind_outputs(b, node, {b.emit1("aten.clone.default", {tensor_arg(shuffled)}, contiguous_meta(out.dtype, out.sizes),
                                 {{"memory_format", memory_format_arg(kContiguousFormat)}})});
  return true;
}

}  // namespace

std::string emit_permute(GraphBuilder& b, const std::string& x, const std::vector<int64_t>& dims) {
  return b.emit1("aten.permute.default", {tensor_arg(x), ints_arg(dims)}, permuted_meta(b.meta(x), dims));
}

std::string emit_view(GraphBuilder& b, const std::string& x, const std::vector<SymInt>& sizes) {
  return b.emit1("aten.view.default", {tensor_arg(x), b.sym_ints_arg(sizes)}, viewed_meta(b.meta(x), sizes));
}

std::string reshape_value(GraphBuilder& b, const std::string& x, const std::vector<SymInt>& sizes) {
  const TensorMeta& m = b.meta(x);
  std::string src = x;
  if (!b.layout_known(x) || !view_strides_of(m, sizes)) {
    src = b.emit1("aten.clone.default", {tensor_arg(x)}, contiguous_meta(m.dtype, m.sizes),
                  {{"memory_format", memory_format_arg(kContiguousFormat)}});
  }
  return emit_view(b, src, sizes);
}

void add_shape_decompositions(DecompositionTable& t) {
  t["aten::flatten.using_ints"] = flatten;
  t["aten::reshape.default"] = reshape;
  t["aten::contiguous.default"] = contiguous;
  t["aten::transpose.int"] = transpose;
  t["aten::squeeze.dim"] = squeeze_dim;
  t["aten::to.dtype"] = to_dtype;
  t["aten::squeeze.default"] = squeeze_all;
  t["aten::narrow.default"] = narrow;
  t["aten::split.Tensor"] = split;
  t["aten::unflatten.int"] = unflatten;
  t["aten::chunk.default"] = chunk;
  t["aten::pixel_shuffle.default"] = pixel_shuffle;
}

}  // namespace pt2web
