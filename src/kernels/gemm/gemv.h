// Matrix-vector products for the GEMM entry point: a one-row (or, by
// transposition, one-column) product gains nothing from packing, and reads
// each element of the matrix exactly once here.
#pragma once

#include <cstdint>

#include "kernels/gemm/gemm.h"

namespace pt2web::gemm_detail {

// c[j * c_stride] (+)= sum_k a[k * a_stride] * B(k, j) for j < N.
void gemv_f32(int64_t N, int64_t K, const float* a, int64_t a_stride, MatrixF32 B, float* c, int64_t c_stride,
              bool accumulate);

}  // namespace pt2web::gemm_detail
