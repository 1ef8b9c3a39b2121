// The GEMM micro-kernel: a 2x16 tile of C from one packed A panel (2 rows)
// and one packed B panel (16 columns) over kc steps. Eight 4-lane
// accumulators, four B vectors and one broadcast A value per step: 13 live
// vector registers, which V8 keeps in registers (more accumulators spill).
// Per step it loads 16 floats of B and splats 2 of A for 32 multiply-adds,
// the same loads per multiply-add as a 4x8 tile with half the broadcasts
// (measured faster under V8; docs/DECISIONS.md, "Kernels and fusion").
#pragma once

#include <cstdint>

#include "kernels/gemm/gemm_packing.h"
#include "kernels/vec4.h"

namespace pt2web::gemm_detail {

// C[0..rows, 0..cols] (+)= tile; rows <= 2, cols <= 16 (the rest of the
// padded tile is computed and dropped). `a` is a packed A panel (row r of
// step k at a[k*2 + r]), `b` a packed B panel. Without accumulate the tile
// starts from row_bias[r] + col_bias[c] (each null or padded to 2 / 16
// values).
// With Half, only the first 8 columns of the panel are computed (cols <= 8:
// the last panel of a narrow product, e.g. 49 = 3*16 + 1 columns).
template <bool Half = false>
inline void micro_kernel(int64_t kc, const float* a, const float* b, float* C, int64_t ldc, bool accumulate,
                         int64_t rows, int64_t cols, const float* row_bias, const float* col_bias) {
  static_assert(kTileRows == 2 && kTileCols == 16, "the micro-kernel is written for 2x16 tiles");
  using simd::Vec4;
  Vec4 c00{}, c01{}, c02{}, c03{}, c10{}, c11{}, c12{}, c13{};
  if (col_bias) {
    c00 = c10 = simd::load4(col_bias);
    c01 = c11 = simd::load4(col_bias + 4);
    c02 = c12 = simd::load4(col_bias + 8);
    c03 = c13 = simd::load4(col_bias + 12);
  }
  if (row_bias) {
    const Vec4 r0 = simd::splat4(row_bias), r1 = simd::splat4(row_bias + 1);
    c00 += r0, c01 += r0, c02 += r0, c03 += r0;
    c10 += r1, c11 += r1, c12 += r1, c13 += r1;
  }
  for (int64_t k = 0; k < kc; ++k, a += kTileRows, b += kTileCols) {
    const Vec4 b0 = simd::load4(b), b1 = simd::load4(b + 4);
    const Vec4 a0 = simd::splat4(a), a1 = simd::splat4(a + 1);
    c00 += a0 * b0, c01 += a0 * b1;
    c10 += a1 * b0, c11 += a1 * b1;
    if constexpr (!Half) {
      const Vec4 b2 = simd::load4(b + 8), b3 = simd::load4(b + 12);
      c02 += a0 * b2, c03 += a0 * b3;
      c12 += a1 * b2, c13 += a1 * b3;
    }
  }
  if (rows == kTileRows && cols == kTileCols) {
    float* r0 = C;
    float* r1 = C + ldc;
    if (accumulate) {
      c00 += simd::load4(r0), c01 += simd::load4(r0 + 4), c02 += simd::load4(r0 + 8), c03 += simd::load4(r0 + 12);
      c10 += simd::load4(r1), c11 += simd::load4(r1 + 4), c12 += simd::load4(r1 + 8), c13 += simd::load4(r1 + 12);
    }
    simd::store4(r0, c00), simd::store4(r0 + 4, c01), simd::store4(r0 + 8, c02), simd::store4(r0 + 12, c03);
    simd::store4(r1, c10), simd::store4(r1 + 4, c11), simd::store4(r1 + 8, c12), simd::store4(r1 + 12, c13);
    return;
  }
  float tile[kTileRows][kTileCols];
  simd::store4(tile[0], c00), simd::store4(tile[0] + 4, c01), simd::store4(tile[0] + 8, c02);
  simd::store4(tile[0] + 12, c03);
  simd::store4(tile[1], c10), simd::store4(tile[1] + 4, c11), simd::store4(tile[1] + 8, c12);
  simd::store4(tile[1] + 12, c13);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) C[r * ldc + c] = accumulate ? C[r * ldc + c] + tile[r][c] : tile[r][c];
}

}  // namespace pt2web::gemm_detail
