#include "kernels/gemm/gemm_packing.h"

#include <algorithm>
#include <cstring>

#include "kernels/vec4.h"

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

namespace {

// dst[k*16 + c] = column c's element k for a full panel whose column c
// starts at base + c * col_stride and runs contiguously along k.
void transposed_panel(const float* base, int64_t col_stride, int64_t kc, float* dst) {
  using simd::Vec4;
  int64_t k = 0;
  for (; k + 4 <= kc; k += 4)
    for (int64_t c = 0; c < kTileCols; c += 4) {
      const float* src = base + c * col_stride + k;
      Vec4 r0 = simd::load4(src), r1 = simd::load4(src + col_stride), r2 = simd::load4(src + 2 * col_stride),
           r3 = simd::load4(src + 3 * col_stride);
      simd::transpose4(r0, r1, r2, r3);
      float* out = dst + k * kTileCols + c;
      simd::store4(out, r0), simd::store4(out + kTileCols, r1), simd::store4(out + 2 * kTileCols, r2),
          simd::store4(out + 3 * kTileCols, r3);
    }
  for (; k < kc; ++k)
    for (int64_t c = 0; c < kTileCols; ++c) dst[k * kTileCols + c] = base[c * col_stride + k];
}

}  // namespace

void pack_b_block(MatrixF32 B, int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) {
  for (int64_t p = 0; p < nc; p += kTileCols, dst += kTileCols * kc) {
    const int64_t cols = std::min(kTileCols, nc - p);
    const float* base = B.data + k0 * B.row_stride + (j0 + p) * B.col_stride;
    if (B.col_stride == 1 && cols == kTileCols) {
      // Rows of the panel are contiguous in B: one copy per k.
      for (int64_t k = 0; k < kc; ++k) std::memcpy(dst + k * kTileCols, base + k * B.row_stride, sizeof(float) * kTileCols);
      continue;
    }
    if (B.row_stride == 1 && cols == kTileCols) {
      // Columns contiguous along k (a linear layer's weight read as W^T):
      // 4x4 blocks loaded as four column pieces and stored transposed.
      transposed_panel(base, B.col_stride, kc, dst);
      continue;
    }
    // General strides.
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
