// The reference GEMM: a plain triple loop in double-free float arithmetic,
// summing over k in order (the order the fast kernels also use per element,
// though they may split k into blocks).
#include "kernels/gemm/gemm.h"

namespace pt2web {

void gemm_f32_reference(int64_t M, int64_t N, int64_t K, MatrixF32 A, MatrixF32 B, float* C, int64_t ldc,
                        bool accumulate, GemmBias bias) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float start = (bias.rows ? bias.rows[i] : 0.0f) + (bias.cols ? bias.cols[j] : 0.0f);
      float sum = accumulate ? C[i * ldc + j] : start;
      for (int64_t k = 0; k < K; ++k) sum += A.at(i, k) * B.at(k, j);
      C[i * ldc + j] = sum;
    }
}

}  // namespace pt2web
