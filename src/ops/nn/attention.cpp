// Attention: scaled_dot_product_attention and the two CPU kernels it lowers
// to, which exported programs may name directly
// (_scaled_dot_product_attention_math, _scaled_dot_product_flash_attention_for_cpu).
//
// All of them follow ATen's math path:
//   scores  = (q * sqrt(scale)) @ (k * sqrt(scale))^T      (scale defaults to 1/sqrt(E))
//   scores += mask       (bool masks: True keeps, False adds -inf; is_causal
//                         keeps the upper-left aligned lower triangle of [L, S])
//   weights = softmax(scores), except that a row whose scores are all -inf
//             gives zeros instead of NaN (torch's _safe_softmax; the CPU flash
//             kernel does the same and reports logsumexp 0 for such rows)
//   output  = weights @ v
// Batch dims broadcast as in matmul. 16-bit inputs compute in float32 and
// round once at the end (the math path upcasts them the same way).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/attention/attention_rows.h"
#include "kernels/math/array_math.h"
#include "kernels/parallel/thread_pool.h"
#include "kernels/gemm/typed_gemm.h"
#include "ops/elementwise.h"
#include "ops/nn/nn.h"
#include "ops/op_utils.h"
#include "ops/views.h"
#include "tensor/strided_loop.h"

namespace pt2web {

namespace {

using attention_family::floating_compute_dtype;
using attention_family::visit_compute_dtype;

// One attention call after its arguments were checked.
struct AttentionRequest {
  Tensor query, key, value;  // key/value already repeated for grouped-query attention
  Tensor mask;               // undefined, bool (True = keep) or additive
  bool is_causal = false;
  double scale = 0.0;        // the signed scale actually applied to q @ k^T
};

struct AttentionResult {
  Tensor output;     // [batch..., L, Ev] in the query's dtype
  Tensor weights;    // [score batch..., L, S] in the compute dtype
  Tensor logsumexp;  // [score batch..., L] in the compute dtype
};

Shape batch_dims(const Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end() - 2); }

Shape with_matrix(Shape batch, int64_t rows, int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

// The additive mask broadcast to `score_shape`, in the compute type: bool
// masks become 0 (keep) / -inf (drop).
template <typename M>
Tensor additive_mask(const Tensor& mask, const Shape& score_shape, DType compute, const char* op) {
  if (broadcast_shapes(score_shape, mask.sizes()) != score_shape)
    fail(ErrorCode::BadInput, op, "attn_mask of shape ", shape_to_string(mask.sizes()),
         " does not broadcast to the attention scores' shape ", shape_to_string(score_shape));
  Tensor expanded = expand_view(mask, score_shape);
  if (mask.dtype() != DType::Bool) return expanded.to(compute);
  const M neg_inf = -std::numeric_limits<M>::infinity();
  return elementwise::map_elements<elementwise::Kinds::Floating, false>(
      compute, [neg_inf](auto keep) { return keep != decltype(keep)(0) ? M(0) : neg_inf; },
      elementwise::kernel_input(elementwise::operand(expanded), compute));
}

// In place: the row x[S] becomes its softmax; returns its logsumexp. A row
// that is entirely -inf becomes zeros (logsumexp 0).
template <typename M>
M safe_softmax_row(M* x, int64_t S) {
  const M neg_inf = -std::numeric_limits<M>::infinity();
  M max = neg_inf;
  bool all_masked = true;
  for (int64_t j = 0; j < S; ++j) {
    if (x[j] > max) max = x[j];
    if (!(x[j] == neg_inf)) all_masked = false;
  }
  if (all_masked) {
    for (int64_t j = 0; j < S; ++j) x[j] = M(0);
    return M(0);
  }
  // A NaN score (or +inf, through inf - inf) turns the whole row NaN, as in torch.
  if constexpr (std::is_same<M, float>::value) return softmax_f32(x, x, S);
  M sum = M(0);
  for (int64_t j = 0; j < S; ++j) {
    x[j] = std::exp(x[j] - max);
    sum += x[j];
  }
  const M inv = M(1) / sum;
  for (int64_t j = 0; j < S; ++j) x[j] *= inv;
  return max + std::log(sum);
}

// Every row of scores [rows, S], split across threads; lse[row] gets its logsumexp.
template <typename M>
void safe_softmax_rows(M* scores, M* lse, int64_t rows, int64_t S) {
  parallel::for_each_index(rows, 16 * S, [&](int64_t r) { lse[r] = safe_softmax_row(scores + r * S, S); });
}

template <typename M>
AttentionResult attend_typed(const AttentionRequest& req, DType compute, const char* op) {
  const Tensor& q = req.query;
  const Tensor& k = req.key;
  const Tensor& v = req.value;
  const int64_t L = q.size(-2), E = q.size(-1), S = k.size(-2), Ev = v.size(-1);
  const Shape score_batch = broadcast_shapes(batch_dims(q), batch_dims(k));
  const Shape out_batch = broadcast_shapes(score_batch, batch_dims(v));
  const int64_t nb = shape_numel(score_batch);

  // q and k each carry sqrt(|scale|) (ATen scales both before the product
  // for numerical range); a negative scale flips q's sign.
  const double root = std::sqrt(std::fabs(req.scale));
  const M q_factor = static_cast<M>(req.scale < 0 ? -root : root);
  const M k_factor = static_cast<M>(root);
  Tensor qs = expand_view(q, with_matrix(score_batch, L, E)).to(compute, true);
  Tensor kt = expand_view(transpose_view(k, -2, -1), with_matrix(score_batch, E, S)).to(compute, true);
  for (M* p = qs.data<M>(), *end = p + qs.numel(); p != end; ++p) *p *= q_factor;
  for (M* p = kt.data<M>(), *end = p + kt.numel(); p != end; ++p) *p *= k_factor;

  const Shape score_shape = with_matrix(score_batch, L, S);
  Tensor scores = Tensor::empty(compute, score_shape);
  M* sc = scores.data<M>();
  parallel::for_each_index(nb, L * S * E, [&](int64_t b) {
    attention_family::gemm<M>(L, S, E, qs.data<M>() + b * L * E, E, kt.data<M>() + b * E * S, S, sc + b * L * S, S,
                              false);
  });

  if (req.mask.defined()) {
    Tensor add = additive_mask<M>(req.mask, score_shape, compute, op);
    const M* a = add.data<M>();
    for (int64_t i = 0, n = scores.numel(); i < n; ++i) sc[i] += a[i];
  }
  if (req.is_causal) {
    const M neg_inf = -std::numeric_limits<M>::infinity();
    for (int64_t b = 0; b < nb; ++b)
      for (int64_t i = 0; i < L; ++i)
        for (int64_t j = i + 1; j < S; ++j) sc[(b * L + i) * S + j] = neg_inf;
  }

  Shape lse_shape = score_batch;
  lse_shape.push_back(L);
  Tensor lse = Tensor::empty(compute, lse_shape);
  safe_softmax_rows<M>(sc, lse.data<M>(), nb * L, S);

  // The value product broadcasts the weights over any extra batch dims of v.
  Tensor w = expand_view(scores, with_matrix(out_batch, L, S)).to(compute);
  Tensor vc = expand_view(v, with_matrix(out_batch, S, Ev)).to(compute);
  const int64_t nout = shape_numel(out_batch);
  Tensor out = Tensor::empty(compute, with_matrix(out_batch, L, Ev));
  parallel::for_each_index(nout, L * Ev * S, [&](int64_t b) {
    attention_family::gemm<M>(L, Ev, S, w.data<M>() + b * L * S, S, vc.data<M>() + b * S * Ev, Ev,
                              out.data<M>() + b * L * Ev, Ev, false);
  });

  AttentionResult result;
  result.output = out.to(q.dtype());
  result.weights = scores;
  result.logsumexp = lse;
  return result;
}

AttentionResult attend(const AttentionRequest& req, const char* op) {
  DType compute = floating_compute_dtype(req.query.dtype());
  return visit_compute_dtype(compute, [&](auto tag) {
    using M = typename decltype(tag)::type;
    return attend_typed<M>(req, compute, op);
  });
}

// Checks shared by every entry point (ATen's validate_sdpa_input plus the
// shape requirements of the products).
void check_qkv(const OpCall& c, const Tensor& q, const Tensor& k, const Tensor& v) {
  if (q.dtype() != k.dtype() || q.dtype() != v.dtype())
    fail(ErrorCode::BadInput, c.where(), "Expected query, key, and value to have the same dtype, but got query.dtype: ",
         dtype_name(q.dtype()), " key.dtype: ", dtype_name(k.dtype()), " and value.dtype: ", dtype_name(v.dtype()),
         " instead.");
  if (!attention_family::is_float_dtype(q.dtype()))
    fail(ErrorCode::Unsupported, c.where(), "attention needs floating-point inputs, got ", dtype_name(q.dtype()));
  if (q.dim() < 2 || k.dim() < 2 || v.dim() < 2)
    fail(ErrorCode::BadInput, c.where(),
         "Expected query, key, and value to all be at least 2 dimensional, but got query.dim: ", q.dim(),
         " key.dim: ", k.dim(), " and value.dim: ", v.dim(), " instead.");
  if (q.size(-1) != k.size(-1))
    fail(ErrorCode::BadInput, c.where(), "query and key must have the same embedding size, got ",
         shape_to_string(q.sizes()), " and ", shape_to_string(k.sizes()));
  if (k.size(-2) != v.size(-2))
    fail(ErrorCode::BadInput, c.where(), "key and value must have the same sequence length, got ",
         shape_to_string(k.sizes()), " and ", shape_to_string(v.sizes()));
}

void check_mask_dtype(const OpCall& c, const Tensor& mask, DType query_dtype) {
  if (!mask.defined()) return;
  if (mask.dtype() != DType::Bool && mask.dtype() != DType::Float32 && mask.dtype() != query_dtype)
    fail(ErrorCode::BadInput, c.where(),
         "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: ",
         dtype_name(mask.dtype()), " and query.dtype: ", dtype_name(query_dtype), " instead.");
}

void check_no_dropout(const OpCall& c, double dropout_p) {
  if (dropout_p > 0.0)
    fail(ErrorCode::Unsupported, c.where(), "dropout_p=", dropout_p,
         " draws random numbers; only dropout_p=0 (inference) is supported");
}

double resolve_scale(const Tensor& query, std::optional<double> scale) {
  return scale ? *scale : 1.0 / std::sqrt(static_cast<double>(query.size(-1)));
}

// ---- grouped heads read in place -------------------------------------------
// With g query heads per key/value head, head h of the query reads head
// h / g of the key and value. Seen as [..., Hk, g, L, E], the query is a view
// of itself and the key a stride-0 view over g: the row kernel then maps the
// heads with no copy of the key and value (a static cache's, in a decode step).

// [..., H, L, E] seen as [..., H / g, g, L, E].
Tensor split_heads(const Tensor& t, int64_t group) {
  Shape sizes = t.sizes(), strides = t.strides();
  const size_t h = sizes.size() - 3;
  const int64_t heads = sizes[h], stride = strides[h];
  sizes[h] = heads / group;
  strides[h] = stride * group;
  sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(h) + 1, group);
  strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(h) + 1, stride);
  return t.as_strided(sizes, strides, t.storage_offset());
}

// [..., Hk, S, E] seen as [..., Hk, g, S, E], each head repeated g times.
Tensor repeat_heads_view(const Tensor& t, int64_t group) {
  Tensor grouped = unsqueeze_view(t, t.dim() - 2);
  Shape sizes = grouped.sizes();
  sizes[sizes.size() - 3] = group;
  return expand_view(grouped, sizes);
}

// [..., Hk, g, L, E] back to [..., Hk * g, L, E]: a view when the two head
// dims are laid out as one (as split_heads and contiguous outputs are).
Tensor merge_heads(const Tensor& t) {
  Shape sizes = t.sizes(), strides = t.strides();
  const size_t h = sizes.size() - 4;
  if (sizes[h] > 1 && strides[h] != sizes[h + 1] * strides[h + 1]) return merge_heads(t.contiguous());
  sizes[h] *= sizes[h + 1];
  strides[h] = strides[h + 1];
  sizes.erase(sizes.begin() + static_cast<std::ptrdiff_t>(h) + 1);
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(h) + 1);
  return t.as_strided(sizes, strides, t.storage_offset());
}

// Grouped-query attention: key/value heads (dim -3) are repeated so each
// group of query heads sees its own copy (repeat_interleave, as ATen does).
Tensor repeat_heads(const Tensor& t, int64_t repeats) {
  if (repeats == 1) return t;
  return merge_heads(repeat_heads_view(t, repeats).contiguous());
}

void apply_gqa(const OpCall& c, AttentionRequest& req) {
  const Tensor& q = req.query;
  if (q.dim() < 3 || req.key.dim() < 3 || req.value.dim() < 3)
    fail(ErrorCode::BadInput, c.where(), "enable_gqa needs query, key and value with a head dimension (dim -3)");
  const int64_t hq = q.size(-3), hk = req.key.size(-3), hv = req.value.size(-3);
  if (hq == hk && hk == hv) return;
  if (hk == 0 || hv == 0 || hq % hk != 0 || hq % hv != 0)
    fail(ErrorCode::BadInput, c.where(), "Number of heads in key and value must divide the number of heads in query (",
         hq, " query heads, ", hk, " key heads, ", hv, " value heads)");
  req.key = repeat_heads(req.key, hq / hk);
  req.value = repeat_heads(req.value, hq / hv);
}

// Shared by scaled_dot_product_attention and _scaled_dot_product_attention_math:
// (query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa).
// `repeat_gqa_heads` false leaves grouped key/value heads as they are for
// the caller to map (sdpa_op's row kernel reads them in place).
AttentionRequest math_request(const OpCall& c, size_t scale_index, size_t gqa_index, bool repeat_gqa_heads = true) {
  AttentionRequest req;
  req.query = c.tensor(0);
  req.key = c.tensor(1);
  req.value = c.tensor(2);
  req.mask = c.optional_tensor(3);
  req.is_causal = c.bool_arg(5);
  check_qkv(c, req.query, req.key, req.value);
  check_mask_dtype(c, req.mask, req.query.dtype());
  check_no_dropout(c, c.double_arg(4));
  if (req.is_causal && req.mask.defined())
    fail(ErrorCode::BadInput, c.where(), "Explicit attn_mask should not be set when is_causal=True");
  req.scale = resolve_scale(req.query, c.optional_double(scale_index));
  if (repeat_gqa_heads && c.bool_arg(gqa_index)) apply_gqa(c, req);
  return req;
}

// A mask broadcastable to [..., Hq, L, S] as one broadcastable to [..., Hk, g, L, S].
Tensor split_mask_heads(const Tensor& mask, int64_t q_heads, int64_t group) {
  if (!mask.defined() || mask.dim() < 3) return mask;
  if (mask.size(-3) == q_heads && q_heads > 1) return split_heads(mask, group);
  return unsqueeze_view(mask, mask.dim() - 2);  // a head dim of 1 broadcasts over both
}

// The query heads per key/value head of an enable_gqa call (checked as
// apply_gqa checks them), or 1 when key and value are not grouped alike.
int64_t kv_head_group(const AttentionRequest& req) {
  const Tensor& q = req.query;
  if (q.dim() < 3 || req.key.dim() < 3 || req.value.dim() < 3) return 1;
  const int64_t hq = q.size(-3), hk = req.key.size(-3), hv = req.value.size(-3);
  if (hk != hv || hk == 0 || hq % hk != 0) return 1;
  return hq / hk;
}

// ATen's is_non_overlapping_and_dense: the strides are a permutation of a
// contiguous layout (size-1 dims ignored).
bool non_overlapping_and_dense(const Tensor& t) {
  const Shape& sizes = t.sizes();
  const Shape& strides = t.strides();
  std::vector<size_t> perm(sizes.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t expected = 1;
  for (size_t d : perm) {
    if (sizes[d] < 2) return true;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

// `values` copied into a tensor laid out like empty_like(like) would be: the
// same strides when `like` is dense, else contiguous.
Tensor with_layout_of(const Tensor& values, const Tensor& like) {
  if (!non_overlapping_and_dense(like)) return values;
  Tensor out = Tensor::empty(values.dtype(), {values.numel()}).as_strided(like.sizes(), like.strides(), 0);
  out.copy_from(values);
  return out;
}

// Whether eager torch on CPU would run this call through the flash kernel
// (sdp_utils_cpp's use_flash_attention_cpp). Only the output's memory layout
// depends on it: the flash kernel returns strides like the query's, the math
// path a contiguous tensor, and later view() nodes in an exported graph may
// rely on which one it was.
// `group`: key and value heads stand for that many query heads each (as if
// repeated, which is how the grouped call is decided).
bool takes_flash_path(const AttentionRequest& req, int64_t group = 1) {
  const Tensor &q = req.query, &k = req.key, &v = req.value;
  if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4) return false;
  if (k.size(0) != q.size(0) || v.size(0) != q.size(0) || k.size(1) * group != q.size(1) ||
      v.size(1) * group != q.size(1))
    return false;
  if (k.size(3) != q.size(3) || v.size(3) != q.size(3)) return false;
  if (q.size(2) == 0 || k.size(2) == 0) return false;
  if (q.strides()[3] != 1 || k.strides()[3] != 1 || v.strides()[3] != 1) return false;
  const Tensor& m = req.mask;
  if (m.defined()) {
    if (m.dim() != 2 && m.dim() != 4) return false;
    if ((m.size(-2) != q.size(2) && m.size(-2) != 1) || (m.size(-1) != k.size(2) && m.size(-1) != 1)) return false;
    if (m.dim() == 4 && ((m.size(0) != 1 && m.size(0) != q.size(0)) || (m.size(1) != 1 && m.size(1) != q.size(1))))
      return false;
  }
  return true;
}

// ---- small float32 heads: the direct row kernel (kernels/attention) ---------

// Up to this many multiply-adds per head and product (L*S*E), or for at most
// kRowKernelMaxRows query rows, one row at a time beats packing two GEMMs.
constexpr int64_t kRowKernelMaxWork = 64 * 64 * 64;
constexpr int64_t kRowKernelMaxRows = 8;

// Strides of t's batch dims (all but the last two).
Shape batch_strides(const Tensor& t) { return Shape(t.strides().begin(), t.strides().end() - 2); }

// float32 q, k, v with one batch shape, contiguous rows in q and v, no empty
// dims, and a head small enough for the row kernel.
// `widened`: q, k and v are still to be widened to float32, which makes them
// contiguous, so neither their dtype nor their strides count yet.
bool fits_row_kernel(const AttentionRequest& req, bool widened = false) {
  const Tensor &q = req.query, &k = req.key, &v = req.value;
  if (!widened && q.dtype() != DType::Float32) return false;
  if (batch_dims(q) != batch_dims(k) || batch_dims(q) != batch_dims(v)) return false;
  if (!widened && (q.strides().back() != 1 || v.strides().back() != 1)) return false;
  if (q.numel() == 0 || k.numel() == 0 || v.numel() == 0) return false;
  const int64_t L = q.size(-2), S = k.size(-2), E = q.size(-1);
  return L <= kRowKernelMaxRows || L * S * E <= kRowKernelMaxWork;
}

// The attention output through attention_rows_f32, written straight into a
// tensor laid out like the query when `like_query` and the query is dense
// (what with_layout_of would copy it into), else contiguous.
Tensor attend_rows(const AttentionRequest& req, bool like_query, const char* op) {
  const Tensor &q = req.query, &k = req.key, &v = req.value;
  const int64_t L = q.size(-2), E = q.size(-1), S = k.size(-2), Ev = v.size(-1);
  const Shape out_shape = with_matrix(batch_dims(q), L, Ev);
  Tensor out = like_query && Ev == E && non_overlapping_and_dense(q)
                   ? Tensor::empty(DType::Float32, {q.numel()}).as_strided(q.sizes(), q.strides(), 0)
                   : Tensor::empty(DType::Float32, out_shape);
  Tensor mask;
  if (req.mask.defined()) mask = additive_mask<float>(req.mask, with_matrix(batch_dims(q), L, S), DType::Float32, op);
  // Element offsets of each batch entry in q, k, v, out and mask (whose batch
  // dims are q's), in row-major order.
  const Shape batch = batch_dims(q);
  const Shape qs = batch_strides(q), ks = batch_strides(k), vs = batch_strides(v), os = batch_strides(out),
              ms = mask.defined() ? batch_strides(mask) : Shape(batch.size(), 0);
  std::vector<std::array<int64_t, 5>> entries;
  for_each_offsets<5>(batch, {&qs, &ks, &vs, &os, &ms},
                      [&](const std::array<int64_t, 5>& offsets) { entries.push_back(offsets); });
  AttentionRowsArgs base;
  base.q_row = q.strides()[q.dim() - 2];
  base.k_row = k.strides()[k.dim() - 2];
  base.v_row = v.strides()[v.dim() - 2];
  base.out_row = out.strides()[out.dim() - 2];
  if (mask.defined()) {
    base.mask_row = mask.strides()[mask.dim() - 2];
    base.mask_col = mask.strides()[mask.dim() - 1];
  }
  base.L = L;
  base.S = S;
  base.E = E;
  base.Ev = Ev;
  const double root = std::sqrt(std::fabs(req.scale));
  base.q_factor = static_cast<float>(req.scale < 0 ? -root : root);
  base.k_factor = static_cast<float>(root);
  base.causal = req.is_causal;
  const size_t scratch = static_cast<size_t>(attention_rows_scratch(S, E, Ev));
  parallel::for_each_index(static_cast<int64_t>(entries.size()), L * S * (E + Ev), [&](int64_t b) {
    thread_local std::vector<float> buffer;
    if (buffer.size() < scratch) buffer.resize(scratch);
    const std::array<int64_t, 5>& at = entries[static_cast<size_t>(b)];
    AttentionRowsArgs a = base;
    a.q = q.data<float>() + at[0];
    a.k = k.data<float>() + at[1];
    a.v = v.data<float>() + at[2];
    a.out = out.data<float>() + at[3];
    if (mask.defined()) a.mask = mask.data<float>() + at[4];
    attention_rows_f32(a, buffer.data());
  });
  return out;
}

// The attention through the row kernel when its sizes suit it, else
// undefined. 16-bit inputs are widened to float32 (small next to the
// products) and the output rounded back once, as the general path does;
// grouped heads (`gqa`) are read in place. The output has the layout the
// call's path in eager torch gives it (takes_flash_path).
Tensor attend_rows_if_small(const AttentionRequest& req, bool gqa, const char* op) {
  const DType dtype = req.query.dtype();
  const bool narrow = dtype == DType::Float16 || dtype == DType::BFloat16;
  if (dtype != DType::Float32 && !narrow) return Tensor();
  int64_t group = 1;
  if (gqa && req.query.dim() >= 3 && req.key.dim() >= 3 && req.value.dim() >= 3 &&
      (req.key.size(-3) != req.query.size(-3) || req.value.size(-3) != req.query.size(-3))) {
    group = kv_head_group(req);
    if (group == 1) return Tensor();  // key and value grouped differently: repeated by apply_gqa
  }
  // The grouped heads as views: [..., Hk, g, L, E] queries over stride-0 keys and values.
  auto grouped = [&](AttentionRequest r) {
    if (group == 1) return r;
    r.query = split_heads(r.query, group);
    r.key = repeat_heads_view(r.key, group);
    r.value = repeat_heads_view(r.value, group);
    r.mask = split_mask_heads(r.mask, req.query.size(-3), group);
    return r;
  };
  // Sizes are checked before anything is widened, so a call the row kernel
  // does not take widens nothing here.
  if (!fits_row_kernel(grouped(req), narrow)) return Tensor();
  AttentionRequest wide = req;
  if (narrow) {
    wide.query = req.query.to(DType::Float32);
    wide.key = req.key.to(DType::Float32);
    wide.value = req.value.to(DType::Float32);
  }
  const bool like_query = takes_flash_path(req, group);
  Tensor out = attend_rows(grouped(wide), like_query && !narrow, op);
  if (group > 1) out = merge_heads(out);
  if (!narrow) return out;
  out = out.to(dtype);
  return like_query ? with_layout_of(out, req.query) : out;
}

void sdpa_op(OpCall& c) {
  AttentionRequest req = math_request(c, 6, 7, false);
  const bool gqa = c.bool_arg(7);
  if (Tensor out = attend_rows_if_small(req, gqa, c.where().c_str()); out.defined()) {
    c.push(out);
    return;
  }
  if (gqa) apply_gqa(c, req);
  Tensor out = attend(req, c.where().c_str()).output;
  c.push(takes_flash_path(req) ? with_layout_of(out, req.query) : out);
}

void sdpa_math_op(OpCall& c) {
  // Argument 6 is dropout_mask, which only matters when dropout_p > 0.
  AttentionRequest req = math_request(c, 7, 8);
  AttentionResult r = attend(req, c.where().c_str());
  c.push(r.output);
  c.push(r.weights.to(req.query.dtype()));
}

// The CPU flash kernel's own contract: 4-D [B, H, L, E] inputs with one head
// size, float or query-typed 2-D/4-D masks, no dropout. It applies is_causal
// and an explicit mask together, and returns logsumexp [B, H, L] in the
// compute type (float32 for 16-bit inputs).
void flash_for_cpu_op(OpCall& c) {
  AttentionRequest req;
  req.query = c.tensor(0);
  req.key = c.tensor(1);
  req.value = c.tensor(2);
  req.is_causal = c.bool_arg(4);
  req.mask = c.optional_tensor(5);
  const Tensor& q = req.query;
  check_qkv(c, q, req.key, req.value);
  check_no_dropout(c, c.double_arg(3));
  if (q.dim() != 4 || req.key.dim() != 4 || req.value.dim() != 4)
    fail(ErrorCode::BadInput, c.where(), "Accept only 4 dims inputs shape of {B, H, T, K}");
  if (q.size(3) != req.value.size(3))
    fail(ErrorCode::BadInput, c.where(), "Q/K/V should have the same head size");
  if (req.key.size(0) != q.size(0) || req.value.size(0) != q.size(0))
    fail(ErrorCode::BadInput, c.where(), "query, key and value must have the same batch size");
  if (req.mask.defined()) {
    if (req.mask.dtype() != DType::Float32 && req.mask.dtype() != q.dtype())
      fail(ErrorCode::BadInput, c.where(), "Attention mask must be float32 or have the query's dtype, got ",
           dtype_name(req.mask.dtype()));
    if (req.mask.dim() != 2 && req.mask.dim() != 4)
      fail(ErrorCode::BadInput, c.where(), "Attention mask dim in {2, 4}, got ", req.mask.dim());
  }
  req.scale = resolve_scale(q, c.optional_double(6));
  apply_gqa(c, req);
  AttentionResult r = attend(req, c.where().c_str());
  // The kernel allocates its output like the query and logsumexp as a
  // [B, L, H] buffer seen as [B, H, L].
  c.push(with_layout_of(r.output, q));
  Tensor lse = Tensor::empty(r.logsumexp.dtype(), {q.size(0), q.size(2), q.size(1)});
  Tensor lse_view = transpose_view(lse, 1, 2);
  lse_view.copy_from(r.logsumexp);
  c.push(lse_view);
}

}  // namespace

void register_attention_ops(OpTable& t) {
  t.add("aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
        "float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
        sdpa_op);
  t.add("aten::_scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
        "float dropout_p=0.0, bool is_causal=False, Tensor? dropout_mask=None, *, float? scale=None, "
        "bool enable_gqa=False) -> (Tensor, Tensor)",
        sdpa_math_op);
  t.add("aten::_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, "
        "float dropout_p=0.0, bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> "
        "(Tensor output, Tensor logsumexp)",
        flash_for_cpu_op);
}

}  // namespace pt2web
