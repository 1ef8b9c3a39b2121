// Products of few rows with a weight packed ahead (pack_weight_f32, gemm.h):
// a recurrent step at batch 1..8, C = A W^T. The panels of
// W^T are read in place and in order, sixteen outputs at a time whose
// four-lane sums stay in registers through all of K (starting from the
// bias), for up to two rows of A at once; a panel is read once per two rows
// and is still in cache for the next pair. Unlike the unpacked dot products
// (gemv.h), nothing is reduced across lanes and x is broadcast once per step
// for sixteen outputs. It runs at 0.5-0.9 of the rate of one plain read of
// the weight, by shape, bound by each sum's chain of adds where the weight
// is in cache; unrolled alternatives spilled under V8 (docs/DECISIONS.md
// has the figures).
// No heap allocation after the first call on a thread (a strided A is copied
// into a thread-local buffer that only grows).
// Preconditions (checked by callers): sizes >= 0, `packed` from
// pack_weight_f32(N, K, W, packed), C does not overlap A or the weight.
#pragma once

#include <cstdint>

#include "kernels/gemm/gemm.h"

namespace pt2web::gemm_detail {

// C[i, j] = col_bias[j] (zero when null) + sum_k A(i, k) W(j, k) for i < M
// and j0 <= j < j1, where j0 is a multiple of the panel width (16) and C's
// rows have stride ldc.
void packed_weight_rows_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, const float* packed, int64_t j0,
                            int64_t j1, float* C, int64_t ldc, const float* col_bias);

}  // namespace pt2web::gemm_detail
