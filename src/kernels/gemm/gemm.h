// Matrix multiplication kernels: C[M,N] = A[M,K] * B[K,N] on contiguous
// row-major float32 matrices. gemm_f32 picks the fastest implementation for
// the build; gemm_f32_reference is the plain loop every fast variant is
// tested against.
#pragma once

#include <cstdint>

namespace pt2web {

// C = A*B (beta == 0) or C += A*B (accumulate). lda/ldb/ldc are row strides.
void gemm_f32_reference(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
                        int64_t ldb, float* C, int64_t ldc, bool accumulate);

void gemm_f32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
              float* C, int64_t ldc, bool accumulate);

}  // namespace pt2web
