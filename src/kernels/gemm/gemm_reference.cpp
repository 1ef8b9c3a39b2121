#include "kernels/gemm/gemm.h"

namespace pt2web {

void gemm_f32_reference(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
                        int64_t ldb, float* C, int64_t ldc, bool accumulate) {
  for (int64_t i = 0; i < M; ++i) {
    float* c = C + i * ldc;
    if (!accumulate)
      for (int64_t j = 0; j < N; ++j) c[j] = 0.0f;
    for (int64_t k = 0; k < K; ++k) {
      const float a = A[i * lda + k];
      const float* b = B + k * ldb;
      for (int64_t j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}

// Until the blocked SIMD kernel lands, the reference loop (i-k-j order, which
// compilers vectorize) is the implementation.
void gemm_f32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
              float* C, int64_t ldc, bool accumulate) {
  gemm_f32_reference(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

}  // namespace pt2web
