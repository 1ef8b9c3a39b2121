// The GEMM micro-kernel: a 4x8 tile of C from one packed A panel (4 rows)
// and one packed B panel (8 columns) over kc steps. Eight 4-lane
// accumulators, two B vectors and one broadcast A value per step: 11 live
// vector registers, which V8 keeps in registers (larger tiles spill).
#pragma once

#include <cstdint>

#include "kernels/gemm/gemm_packing.h"
#include "kernels/vec4.h"

namespace pt2web::gemm_detail {

// C[0..rows, 0..cols] (+)= tile; rows <= 4, cols <= 8 (the rest of the
// padded tile is computed and dropped). Element (r, k) of A is at
// a[r*a_row_step + k*a_k_step]: a packed panel (1, 4) or rows of A read in
// place (lda, 1). Without accumulate the tile starts from
// row_bias[r] + col_bias[c] (each null or padded to 4 / 8 values).
inline void micro_kernel_4x8(int64_t kc, const float* a, int64_t a_row_step, int64_t a_k_step, const float* b,
                             float* C, int64_t ldc, bool accumulate, int64_t rows, int64_t cols,
                             const float* row_bias, const float* col_bias) {
  using simd::Vec4;
  Vec4 c00{}, c01{}, c10{}, c11{}, c20{}, c21{}, c30{}, c31{};
  if (col_bias) {
    c00 = c10 = c20 = c30 = simd::load4(col_bias);
    c01 = c11 = c21 = c31 = simd::load4(col_bias + 4);
  }
  if (row_bias) {
    Vec4 r = simd::splat4(row_bias);
    c00 += r, c01 += r;
    r = simd::splat4(row_bias + 1);
    c10 += r, c11 += r;
    r = simd::splat4(row_bias + 2);
    c20 += r, c21 += r;
    r = simd::splat4(row_bias + 3);
    c30 += r, c31 += r;
  }
  const float* a0 = a;
  const float* a1 = a + a_row_step;
  const float* a2 = a + 2 * a_row_step;
  const float* a3 = a + 3 * a_row_step;
  for (int64_t k = 0; k < kc; ++k, a0 += a_k_step, a1 += a_k_step, a2 += a_k_step, a3 += a_k_step, b += kTileCols) {
    const Vec4 b0 = simd::load4(b), b1 = simd::load4(b + 4);
    Vec4 ak = simd::splat4(a0);
    c00 += ak * b0;
    c01 += ak * b1;
    ak = simd::splat4(a1);
    c10 += ak * b0;
    c11 += ak * b1;
    ak = simd::splat4(a2);
    c20 += ak * b0;
    c21 += ak * b1;
    ak = simd::splat4(a3);
    c30 += ak * b0;
    c31 += ak * b1;
  }
  if (rows == kTileRows && cols == kTileCols) {
    float* r0 = C;
    float* r1 = C + ldc;
    float* r2 = C + 2 * ldc;
    float* r3 = C + 3 * ldc;
    if (accumulate) {
      c00 += simd::load4(r0), c01 += simd::load4(r0 + 4);
      c10 += simd::load4(r1), c11 += simd::load4(r1 + 4);
      c20 += simd::load4(r2), c21 += simd::load4(r2 + 4);
      c30 += simd::load4(r3), c31 += simd::load4(r3 + 4);
    }
    simd::store4(r0, c00), simd::store4(r0 + 4, c01);
    simd::store4(r1, c10), simd::store4(r1 + 4, c11);
    simd::store4(r2, c20), simd::store4(r2 + 4, c21);
    simd::store4(r3, c30), simd::store4(r3 + 4, c31);
    return;
  }
  float tile[kTileRows][kTileCols];
  simd::store4(tile[0], c00), simd::store4(tile[0] + 4, c01);
  simd::store4(tile[1], c10), simd::store4(tile[1] + 4, c11);
  simd::store4(tile[2], c20), simd::store4(tile[2] + 4, c21);
  simd::store4(tile[3], c30), simd::store4(tile[3] + 4, c31);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) C[r * ldc + c] = accumulate ? C[r * ldc + c] + tile[r][c] : tile[r][c];
}

}  // namespace pt2web::gemm_detail
