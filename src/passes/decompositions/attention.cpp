// scaled_dot_product_attention as the math path torch's run_decompositions
// writes (ATen's _scaled_dot_product_attention_math, then _safe_softmax from
// torch/_decomp): a boolean mask becomes 0 / -inf; q and k^T are each
// scaled by sqrt(scale); a causal mask is ones(L, S).tril(); the scores
// are matmul(q, k^T) plus the mask; the softmax zeroes rows that are
// entirely -inf; the result is matmul(weights, v), given the layout of
// the CPU flash kernel's output for 4-d inputs. Dropout and grouped-query
// attention keep the node.
#include <cmath>
#include <limits>

#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

// where(mask, 0.0, -inf) in the query's dtype (convert_boolean_attn_mask).
// A mask the caller gave is converted by the operator's entry point, whose
// where() also casts the -inf tensor to the dtype; the causal mask is
// converted inside the math kernel without that cast.
std::string additive_mask(GraphBuilder& b, const std::string& mask, DType dtype, bool cast) {
  std::string neg = b.emit1("aten.scalar_tensor.default", {float_arg(-std::numeric_limits<double>::infinity())},
                            contiguous_meta(dtype, {}), {{"dtype", dtype_arg(dtype)}, {"device", device_cpu_arg()}});
  std::string zero = b.emit1("aten.scalar_tensor.default", {float_arg(0.0)}, contiguous_meta(dtype, {}),
                             {{"dtype", dtype_arg(dtype)}, {"layout", layout_strided_arg()}, {"device", device_cpu_arg()}});
  if (cast) neg = b.emit1("aten._to_copy.default", {tensor_arg(neg)}, contiguous_meta(dtype, {}), {{"dtype", dtype_arg(dtype)}});
  return b.emit1("aten.where.self", {tensor_arg(mask), tensor_arg(zero), tensor_arg(neg)},
                 contiguous_meta(dtype, b.meta(mask).sizes));
}

// _safe_softmax(x, -1): softmax, with rows that are all -inf set to 0.
std::string safe_softmax(GraphBuilder& b, const std::string& x) {
  const TensorMeta m = b.meta(x);
  std::string soft = b.emit1("aten._softmax.default", {tensor_arg(x), int_arg(-1), bool_arg(false)},
                             contiguous_meta(m.dtype, m.sizes));
  TensorMeta flags = contiguous_meta(DType::Bool, m.sizes);
  std::string masked = b.emit1("aten.eq.Scalar", {tensor_arg(x), float_arg(-std::numeric_limits<double>::infinity())}, flags);
  // all(masked, -1, keepdim) is not(any(not masked)).
  std::string unmasked = b.emit1("aten.logical_not.default", {tensor_arg(masked)}, flags);
  TensorMeta row_flags = reduced_meta(flags, {-1}, true);
  std::string any = b.emit1("aten.any.dim", {tensor_arg(unmasked), int_arg(-1), bool_arg(true)}, row_flags);
  std::string masked_rows = b.emit1("aten.logical_not.default", {tensor_arg(any)}, row_flags);
  std::string zeros = b.emit1("aten.full_like.default", {tensor_arg(soft), int_arg(0)}, contiguous_meta(m.dtype, m.sizes),
                              {{"pin_memory", bool_arg(false)}, {"memory_format", memory_format_arg(kPreserveFormat)}});
  return b.emit1("aten.where.self", {tensor_arg(masked_rows), tensor_arg(zeros), tensor_arg(soft)},
                 contiguous_meta(m.dtype, m.sizes));
}

std::string causal_mask(GraphBuilder& b, const SymInt& rows, const SymInt& cols) {
  std::vector<SymInt> sizes = {rows, cols};
  std::string ones = b.emit1("aten.full.default", {b.sym_ints_arg(sizes), bool_arg(true)}, contiguous_meta(DType::Bool, sizes),
                             {{"dtype", dtype_arg(DType::Bool)},
                              {"layout", layout_strided_arg()},
                              {"device", device_cpu_arg()},
                              {"pin_memory", bool_arg(false)}});
  return emit_triangle(b, ones, 0, true);
}

// x * factor, recorded with torch's layout for it (the input's stride
// order), which later reshapes decide on; pt2web's result is contiguous.
std::string scaled(GraphBuilder& b, const std::string& x, double factor) {
  TensorMeta m = pointwise_meta(b.meta(x), b.meta(x).dtype);
  std::string out = b.emit1("aten.mul.Scalar", {tensor_arg(x), float_arg(factor)}, m);
  if (!is_contiguous(m)) b.mark_contiguous_at_run_time(out);
  return out;
}

bool same(const SymInt& a, const SymInt& b) { return a.to_string() == b.to_string(); }

// Whether torch's CPU kernel choice is the flash kernel (sdp_utils_cpp's
// use_flash_attention_cpp): 4-d inputs with the same batch and heads, the
// same head size, non-empty sequences, unit last-dim strides, and a 2-d or
// 4-d mask if any.
bool takes_flash_kernel(const TensorMeta& q, const TensorMeta& k, const TensorMeta& v, const TensorMeta* mask) {
  for (const TensorMeta* m : {&q, &k, &v}) {
    if (m->sizes.size() != 4) return false;
    if (sym_is(m->sizes[2], 0)) return false;
    if (!m->strides.empty() && !sym_is(m->strides[3], 1) && !sym_is(m->sizes[3], 1)) return false;
  }
  for (int d : {0, 1})
    if (!same(q.sizes[d], k.sizes[d]) || !same(q.sizes[d], v.sizes[d])) return false;
  if (!same(q.sizes[3], k.sizes[3]) || !same(q.sizes[3], v.sizes[3])) return false;
  return !mask || mask->sizes.size() == 2 || mask->sizes.size() == 4;
}

// On CPU, 4-d inputs take the flash-attention kernel, whose output is laid
// out as [N, L, H, E] and viewed as [N, H, L, E]; torch's decomposition of
// it gives the math result that layout: permute, contiguous clone, permute.
std::string flash_layout(GraphBuilder& b, const std::string& x) {
  std::string lhne = b.emit1("aten.permute.default", {tensor_arg(x), ints_arg({2, 0, 1, 3})},
                             permuted_meta(b.meta(x), {2, 0, 1, 3}));
  std::string packed = b.emit1("aten.clone.default", {tensor_arg(lhne)}, contiguous_meta(b.meta(lhne).dtype, b.meta(lhne).sizes),
                               {{"memory_format", memory_format_arg(kContiguousFormat)}});
  return b.emit1("aten.permute.default", {tensor_arg(packed), ints_arg({1, 2, 0, 3})},
                 permuted_meta(b.meta(packed), {1, 2, 0, 3}));
}

bool attention(GraphBuilder& b, const Node& node) {
  std::string q = input_tensor(b, node, "query");
  std::string k = input_tensor(b, node, "key");
  std::string v = input_tensor(b, node, "value");
  std::string mask = input_tensor(b, node, "attn_mask");
  bool causal = input_bool(node, "is_causal", false);
  const TensorMeta qm = b.meta(q);
  const TensorMeta km = b.meta(k);
  if (input_float(node, "dropout_p", 0.0) > 0.0 || input_bool(node, "enable_gqa", false)) return false;
  if (qm.sizes.size() < 2 || km.sizes.size() < 2 || qm.sizes.back().is_symbolic) return false;
  if (causal && !mask.empty()) return false;  // torch refuses the combination
  const Argument* scale_arg = node_input(node, "scale");
  bool has_scale = scale_arg && scale_arg->kind != Argument::Kind::None;
  double scale = has_scale ? input_float(node, "scale", 0.0) : 1.0 / std::sqrt(static_cast<double>(qm.sizes.back().value));
  if (scale < 0) return false;  // negative scales multiply q by -sqrt(|scale|): not written yet
  double factor = std::sqrt(scale);

  if (!mask.empty() && b.meta(mask).dtype == DType::Bool) mask = additive_mask(b, mask, qm.dtype, true);
  std::string q_scaled = scaled(b, q, factor);
  if (causal)
    mask = additive_mask(b, causal_mask(b, qm.sizes[qm.sizes.size() - 2], km.sizes[km.sizes.size() - 2]), qm.dtype, false);
  std::string k_t = emit_matrix_transpose(b, k);
  std::string scores = emit_matmul(b, q_scaled, scaled(b, k_t, factor));
  if (!mask.empty()) {
    const TensorMeta& sm = b.meta(scores);
    scores = b.emit1("aten.add.Tensor", {tensor_arg(scores), tensor_arg(mask)}, contiguous_meta(sm.dtype, sm.sizes));
  }
  std::string weights = safe_softmax(b, scores);
  bool flash = takes_flash_kernel(qm, km, b.meta(v), mask.empty() ? nullptr : &b.meta(mask));
  // The math kernel returns (output, weights), each converted to the
  // query's dtype: a copy even when it is the same; the weights' copy is
  // traced first and read by nothing.
  if (!flash) b.emit1("aten._to_copy.default", {tensor_arg(weights)}, b.meta(weights), {{"dtype", dtype_arg(qm.dtype)}});
  std::string out = emit_matmul(b, weights, v);
  if (flash) out = flash_layout(b, out);
  else out = b.emit1("aten._to_copy.default", {tensor_arg(out)}, b.meta(out), {{"dtype", dtype_arg(qm.dtype)}});
  bind_outputs(b, node, {out});
  return true;
}

}  // namespace

void add_attention_decompositions(DecompositionTable& t) {
  t["aten::scaled_dot_product_attention.default"] = attention;
}

}  // namespace pt2web
