#include "kernels/gemm/packed_weight_rows.h"

#include <algorithm>
#include <vector>

#include "kernels/gemm/gemm_packing.h"
#include "kernels/vec4.h"

namespace pt2web::gemm_detail {

namespace {

using simd::Vec4;

constexpr int kPanelVectors = kTileCols / 4;
static_assert(kPanelVectors == 4, "the kernel holds a 16-column panel in four vectors");

// R rows of C (c[r]) at the panel of columns j0 .. j0+16 (fewer in the last
// panel): R*4 sums, four weight vectors and R broadcasts live at once.
template <int R>
__attribute__((noinline)) void panel_rows(int64_t N, int64_t K, const float* packed, int64_t j0,
                                          const float* const* a, const float* bias, float* const* c) {
  const int64_t cols = std::min(kTileCols, N - j0);
  float start[kTileCols] = {};
  if (bias) std::copy(bias + j0, bias + j0 + cols, start);
  Vec4 sum[R][kPanelVectors];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < kPanelVectors; ++v) sum[r][v] = simd::load4(start + 4 * v);
  for (int64_t k0 = 0; k0 < K; k0 += kBlockK) {
    const int64_t kc = std::min(kBlockK, K - k0);
    const float* w = packed_weight_block(packed, N, k0, kc, j0);
    const float* x[R];
    for (int r = 0; r < R; ++r) x[r] = a[r] + k0;
    for (int64_t k = 0; k < kc; ++k, w += kTileCols) {
      const Vec4 w0 = simd::load4(w), w1 = simd::load4(w + 4), w2 = simd::load4(w + 8), w3 = simd::load4(w + 12);
      for (int r = 0; r < R; ++r) {
        const Vec4 xk = simd::splat4(x[r] + k);
        sum[r][0] += xk * w0, sum[r][1] += xk * w1, sum[r][2] += xk * w2, sum[r][3] += xk * w3;
      }
    }
  }
  for (int r = 0; r < R; ++r) {
    if (cols == kTileCols) {
      for (int v = 0; v < kPanelVectors; ++v) simd::store4(c[r] + j0 + 4 * v, sum[r][v]);
    } else {
      float tail[kTileCols];
      for (int v = 0; v < kPanelVectors; ++v) simd::store4(tail + 4 * v, sum[r][v]);
      std::copy(tail, tail + cols, c[r] + j0);
    }
  }
}

}  // namespace

void packed_weight_rows_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, const float* packed, int64_t j0,
                            int64_t j1, float* C, int64_t ldc, const float* col_bias) {
  if (M <= 0 || j1 <= j0) return;
  // Rows of A as contiguous runs of K floats.
  thread_local std::vector<float> gathered;
  const bool contiguous = A.col_stride == 1 || K <= 1;
  if (!contiguous) {
    gathered.resize(static_cast<size_t>(M * K));
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k) gathered[static_cast<size_t>(i * K + k)] = A.at(i, k);
  }
  auto row = [&](int64_t i) { return contiguous ? A.data + i * A.row_stride : gathered.data() + i * K; };
  // Panel by panel, every pair of rows: a panel is read from memory once.
  for (int64_t j = j0; j < j1; j += kTileCols)
    for (int64_t i = 0; i < M; i += 2) {
      if (i + 1 < M) {
        const float* a[2] = {row(i), row(i + 1)};
        float* c[2] = {C + i * ldc, C + (i + 1) * ldc};
        panel_rows<2>(N, K, packed, j, a, col_bias, c);
      } else {
        const float* a[1] = {row(i)};
        float* c[1] = {C + i * ldc};
        panel_rows<1>(N, K, packed, j, a, col_bias, c);
      }
    }
}

}  // namespace pt2web::gemm_detail
