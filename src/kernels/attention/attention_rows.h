// Attention one query row at a time for float32 (attention_rows.cpp): the
// direct kernel behind scaled_dot_product_attention at small head sizes,
// where packing operands for two GEMMs per head costs more than the
// products. Reads q, k, v and writes the output through row strides (the
// last dim must be contiguous), so transposed head views need no copy.
// Owns nothing: the caller passes every pointer; no errors are raised.
//
// Numerics follow ATen's math path: q and k are each multiplied by
// sqrt(|scale|) (q by its negative for a negative scale) before the product,
// the additive mask and the causal triangle are applied to the scores, then
// a safe softmax (an all -inf row gives zeros) and the product with v.
#pragma once

#include <cstdint>

namespace pt2web {

// One batch entry: q [L, E], k [S, E], v [S, Ev] and out [L, Ev], each with
// unit column stride and the given row stride; mask (null: none) is additive
// [L, S] with row stride mask_row and column stride mask_col (0: broadcast).
struct AttentionRowsArgs {
  const float* q = nullptr;
  int64_t q_row = 0;
  const float* k = nullptr;
  int64_t k_row = 0;
  const float* v = nullptr;
  int64_t v_row = 0;
  const float* mask = nullptr;
  int64_t mask_row = 0, mask_col = 0;
  float* out = nullptr;
  int64_t out_row = 0;
  float* lse = nullptr;  // L logsumexp values (0 for fully masked rows), or null
  int64_t L = 0, S = 0, E = 0, Ev = 0;
  float q_factor = 1.0f, k_factor = 1.0f;  // the sqrt(|scale|) split of ATen's math path
  bool causal = false;                     // keep key j <= query i only
};

// Scratch floats attention_rows_f32 needs for these sizes.
int64_t attention_rows_scratch(int64_t S, int64_t E, int64_t Ev);

// Computes one batch entry; scratch holds attention_rows_scratch(S, E, Ev) floats.
void attention_rows_f32(const AttentionRowsArgs& a, float* scratch);

// The plain loops the kernel is tested against (same arguments; any strides).
void attention_rows_reference(const AttentionRowsArgs& a);

}  // namespace pt2web
