#include "kernels/gemm/gemm_packing.h"

#include <algorithm>
#include <cstring>

namespace pt2web::gemm_detail {

void pack_a_block(MatrixF32 A, int64_t i0, int64_t mc, int64_t k0, int64_t kc, float* dst) {
  for (int64_t p = 0; p < mc; p += kTileRows) {
    const int64_t rows = std::min(kTileRows, mc - p);
    const float* src[kTileRows];
    for (int64_t r = 0; r < kTileRows; ++r)
      src[r] = r < rows ? A.data + (i0 + p + r) * A.row_stride + k0 * A.col_stride : nullptr;
    const int64_t step = A.col_stride;
    for (int64_t k = 0; k < kc; ++k, dst += kTileRows)
      for (int64_t r = 0; r < kTileRows; ++r) dst[r] = src[r] ? src[r][k * step] : 0.0f;
  }
}

void pack_b_block(MatrixF32 B, int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) {
  for (int64_t p = 0; p < nc; p += kTileCols, dst += kTileCols * kc) {
    const int64_t cols = std::min(kTileCols, nc - p);
    const float* base = B.data + k0 * B.row_stride + (j0 + p) * B.col_stride;
    if (B.col_stride == 1 && cols == kTileCols) {
      // Rows of the panel are contiguous in B: one copy per k.
      for (int64_t k = 0; k < kc; ++k) std::memcpy(dst + k * kTileCols, base + k * B.row_stride, sizeof(float) * kTileCols);
      continue;
    }
    // General strides (a transposed B walks each column along k).
    for (int64_t c = 0; c < kTileCols; ++c) {
      if (c >= cols) {
        for (int64_t k = 0; k < kc; ++k) dst[k * kTileCols + c] = 0.0f;
        continue;
      }
      const float* column = base + c * B.col_stride;
      for (int64_t k = 0; k < kc; ++k) dst[k * kTileCols + c] = column[k * B.row_stride];
    }
  }
}

}  // namespace pt2web::gemm_detail
