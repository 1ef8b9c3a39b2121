// Products of a few float32 rows with a 16-bit floating weight (float16 or
// bfloat16), the weight read in place: C[M, N] = A[M, K] W^T (+ bias), W
// being a linear layer's [N, K] weight. A language model's decode step is
// such a product per layer, one row, bound by reading the weight: each
// weight element is loaded as its 16 bits and widened to float32 in
// registers, so the weight's bytes pass through the core once and nothing
// the size of the weight is written (widening the whole weight first, as the
// general path does, reads 2 bytes, writes 4 and reads 4 again per element).
// Sums are carried in float32 and C is float32: the caller rounds the result
// to the 16-bit type once, as ATen's CPU kernels do.
//
// The columns are split across the kernels' threads. No heap allocation.
// Preconditions (checked by callers): M, N, K >= 0; A's rows and W's rows
// are contiguous (row strides lda, ldw); C does not overlap A or W.
#pragma once

#include <cstdint>

namespace pt2web {

enum class HalfKind { Float16, BFloat16 };

struct HalfWeight {
  const uint16_t* data = nullptr;  // W[j, k] at data[j * row_stride + k]
  int64_t row_stride = 0;
  HalfKind kind = HalfKind::BFloat16;
};

// C[i, j] = bias[j] (0 when null) + sum_k A[i * lda + k] * W[j, k], for i < M, j < N.
void gemm_half_weight_t_f32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, HalfWeight W, float* C,
                            int64_t ldc, const float* bias);

}  // namespace pt2web
