// The fast GEMM: blocked in the GotoBLAS order. For each block of NC
// columns and KC steps, B is packed once into 16-column panels (kept in
// L2); for each block of MC rows, A is packed into 2-row panels (when all
// rows fit one block, once for the whole product; when threads split the
// columns, once up front for all parts); then the 2x16
// micro-kernel sweeps the block with a B panel held in L1. Products
// with at most eight rows, or one column, take the unpacked path (gemv.h);
// products a few column tiles wide that fill 2-row tiles better than
// 16-column ones are computed transposed (prefer_transposed).
#include <algorithm>
#include <vector>

#include "kernels/aligned_floats.h"
#include "kernels/gemm/gemm.h"
#include "kernels/gemm/gemm_microkernel.h"
#include "kernels/gemm/gemm_packing.h"
#include "kernels/gemm/gemv.h"
#include "kernels/gemm/packed_weight_rows.h"
#include "kernels/parallel/thread_pool.h"

namespace pt2web {

namespace {

using namespace gemm_detail;

constexpr int64_t kBlockM = 120;   // MC: a packed A block of 120x256 floats is 120 KiB
constexpr int64_t kBlockN = 1024;  // NC: a packed B block of 256x1024 floats is 1 MiB
// When all rows fit one MC block, A is packed once per K block and B in
// blocks of about this many floats (128 KiB), so a block is still in L2 when
// the micro-kernel reads it back.
constexpr int64_t kOneRowBlockBFloats = 32768;
// Products with at most this many rows skip packing (gemv.h): each element
// of B takes part in too few multiply-adds to repay its copy.
constexpr int64_t kMaxUnpackedRows = 8;
constexpr int64_t kUnpackedAlign = 8;  // the widest unpacked tile (dot products)
// The largest A (in floats, 4 MiB) that a product split by columns packs once
// for all its parts; a larger one is packed by each part for itself.
constexpr int64_t kMaxSharedAFloats = int64_t{1} << 20;

// C = the bias alone (zeros without one).
void fill_bias(int64_t M, int64_t N, float* C, int64_t ldc, GemmBias bias) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      C[i * ldc + j] = (bias.rows ? bias.rows[i] : 0.0f) + (bias.cols ? bias.cols[j] : 0.0f);
}

// `values` copied and zero-padded to a multiple of `width` (null stays null).
const float* padded(const float* values, int64_t n, int64_t width, std::vector<float>& storage) {
  if (!values) return nullptr;
  storage.assign(static_cast<size_t>(panel_count(n, width) * width), 0.0f);
  std::copy(values, values + n, storage.begin());
  return storage.data();
}

// The panels of a strided B, packed into scratch.
struct StridedB {
  MatrixF32 matrix;
  static const float* panels(const void* context, int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* scratch) {
    pack_b_block(static_cast<const StridedB*>(context)->matrix, k0, kc, j0, nc, scratch);
    return scratch;
  }
};

// Where block (i0, k0) of an A packed whole sits: each K block holds every
// row's panels, row blocks one after another.
int64_t whole_a_offset(int64_t padded_rows, int64_t i0, int64_t k0, int64_t kc) { return k0 * padded_rows + i0 * kc; }

// Rows of A rounded up to whole panels.
int64_t padded_a_rows(int64_t M) { return panel_count(M, kTileRows) * kTileRows; }

// A packed whole (every K block and row block), the blocks split across threads.
void pack_a_whole(MatrixF32 A, int64_t M, int64_t K, float* dst) {
  const int64_t padded_rows = padded_a_rows(M);
  const int64_t row_blocks = panel_count(M, kBlockM);
  parallel::for_each_index(panel_count(K, kBlockK) * row_blocks, kBlockM * kBlockK, [&](int64_t block) {
    const int64_t k0 = block / row_blocks * kBlockK, i0 = block % row_blocks * kBlockM;
    const int64_t kc = std::min(kBlockK, K - k0);
    pack_a_block(A, i0, std::min(kBlockM, M - i0), k0, kc, dst + whole_a_offset(padded_rows, i0, k0, kc));
  });
}

// The blocked product of C's columns [j_begin, j_begin + N); C points at
// column j_begin. `whole_a`: A already packed by pack_a_whole (shared by the
// column parts of a split product), or null to pack it here.
void gemm_blocked(int64_t M, int64_t N, int64_t K, MatrixF32 A, PanelSourceF32 B, int64_t j_begin, float* C,
                  int64_t ldc, bool accumulate, GemmBias bias, const float* whole_a = nullptr) {
  thread_local AlignedFloats packed_a, packed_b;
  thread_local std::vector<float> row_storage, col_storage;
  const int64_t padded_rows = padded_a_rows(M);
  const float* row_bias = padded(bias.rows, M, kTileRows, row_storage);
  const float* col_bias = padded(bias.cols, N, kTileCols, col_storage);
  // One row block: A packed for every K block at once (each packed once), B in narrower blocks.
  const bool one_row_block = M <= kBlockM;
  const int64_t a_block_floats = panel_count(std::min(M, kBlockM), kTileRows) * kTileRows;
  const int64_t block_n =
      one_row_block ? std::clamp(kOneRowBlockBFloats / std::min(K, kBlockK) / kTileCols * kTileCols, kTileCols, kBlockN)
                    : kBlockN;
  if (!whole_a) packed_a.resize(static_cast<size_t>(a_block_floats * (one_row_block ? K : kBlockK)));
  packed_b.resize(static_cast<size_t>(panel_count(std::min(N, block_n), kTileCols) * kTileCols * kBlockK));
  for (int64_t j0 = 0; j0 < N; j0 += block_n) {
    const int64_t nc = std::min(block_n, N - j0);
    for (int64_t k0 = 0; k0 < K; k0 += kBlockK) {
      const int64_t kc = std::min(kBlockK, K - k0);
      const bool add = accumulate || k0 > 0;
      const bool with_bias = !add;
      const float* panels = B.panels(B.context, k0, kc, j_begin + j0, nc, packed_b.data());
      for (int64_t i0 = 0; i0 < M; i0 += kBlockM) {
        const int64_t mc = std::min(kBlockM, M - i0);
        const float* a_block = whole_a ? whole_a + whole_a_offset(padded_rows, i0, k0, kc) : nullptr;
        if (!whole_a) {
          float* block = packed_a.data() + (one_row_block ? a_block_floats * k0 : 0);
          if (!one_row_block || j0 == 0) pack_a_block(A, i0, mc, k0, kc, block);
          a_block = block;
        }
        for (int64_t jp = 0; jp < nc; jp += kTileCols) {
          const float* b = panels + (jp / kTileCols) * kTileCols * kc;
          const int64_t cols = std::min(kTileCols, nc - jp);
          for (int64_t ip = 0; ip < mc; ip += kTileRows) {
            const float* a = a_block + (ip / kTileRows) * kTileRows * kc;
            float* c = C + (i0 + ip) * ldc + j0 + jp;
            const int64_t rows = std::min(kTileRows, mc - ip);
            const float* rb = with_bias && row_bias ? row_bias + i0 + ip : nullptr;
            const float* cb = with_bias && col_bias ? col_bias + j0 + jp : nullptr;
            if (cols <= kTileCols / 2) micro_kernel<true>(kc, a, b, c, ldc, add, rows, cols, rb, cb);
            else micro_kernel(kc, a, b, c, ldc, add, rows, cols, rb, cb);
          }
        }
      }
    }
  }
}

// The blocked product split across threads: by columns when C is at least as
// wide as it is tall (each part packs its own columns of B), else by rows
// (each part packs all of B, so rows are split only when they dominate).
void gemm_blocked_parallel(int64_t M, int64_t N, int64_t K, MatrixF32 A, PanelSourceF32 B, float* C, int64_t ldc,
                           bool accumulate, GemmBias bias) {
  if (N >= M) {
    // Column parts share A, packed once up front when it is small enough
    // (each part would otherwise pack all of it again), and nothing else,
    // so there are several per thread.
    thread_local AlignedFloats shared_a;
    const bool share_a = parallel::thread_count() > 1 && M * K <= kMaxSharedAFloats &&
                         N / parallel::min_items_for(M * K) > 1;
    if (share_a) {
      shared_a.resize(static_cast<size_t>(padded_a_rows(M) * K));
      pack_a_whole(A, M, K, shared_a.data());
    }
    parallel::parallel_for(
        N, kTileCols, parallel::min_items_for(M * K),
        [&](int64_t j0, int64_t j1) {
          gemm_blocked(M, j1 - j0, K, A, B, j0, C + j0, ldc, accumulate,
                       GemmBias{bias.rows, bias.cols ? bias.cols + j0 : nullptr}, share_a ? shared_a.data() : nullptr);
        },
        4);
  } else {
    parallel::parallel_for(M, kTileRows, parallel::min_items_for(N * K), [&](int64_t i0, int64_t i1) {
      const MatrixF32 a{A.data + i0 * A.row_stride, A.row_stride, A.col_stride};
      gemm_blocked(i1 - i0, N, K, a, B, 0, C + i0 * ldc, ldc, accumulate,
                   GemmBias{bias.rows ? bias.rows + i0 : nullptr, bias.cols});
    });
  }
}

// Products narrower than a few column tiles waste much of their last tile
// (N = 49, a pointwise convolution on a 7x7 image: a quarter of it).
// Computed transposed, C^T[N, M] = B^T A^T, the waste falls on the 2-row
// tiles instead; the result is then transposed into C, a pass over M*N
// floats next to the product's M*N*K multiply-adds.
constexpr int64_t kNarrowColumns = 256;
constexpr int64_t kMinTransposedDepth = 32;  // below, the extra pass weighs too much

double tile_use(int64_t rows, int64_t cols) {
  return static_cast<double>(rows * cols) /
         static_cast<double>(panel_count(rows, kTileRows) * kTileRows * panel_count(cols, kTileCols) * kTileCols);
}

bool prefer_transposed(int64_t M, int64_t N, int64_t K) {
  if (N <= kMaxUnpackedRows || N >= kNarrowColumns || K < kMinTransposedDepth) return false;
  return tile_use(N, M) > 1.1 * tile_use(M, N);
}

// C (+)= T^T, T being [N, M] row-major.
void transpose_into(int64_t M, int64_t N, const float* T, float* C, int64_t ldc, bool accumulate) {
  parallel::for_each_index(M, N, [&](int64_t i) {
    float* row = C + i * ldc;
    if (accumulate) {
      for (int64_t j = 0; j < N; ++j) row[j] += T[j * M + i];
    } else {
      for (int64_t j = 0; j < N; ++j) row[j] = T[j * M + i];
    }
  });
}

// C[M, N] (+)= A B computed as C^T = B^T A^T, A^T given by its panels.
void transposed_product(int64_t M, int64_t N, int64_t K, PanelSourceF32 a_transposed, MatrixF32 B, float* C,
                        int64_t ldc, bool accumulate, GemmBias bias) {
  thread_local std::vector<float> product;
  product.resize(static_cast<size_t>(M * N));
  gemm_blocked_parallel(N, M, K, B.transposed(), a_transposed, product.data(), M, false,
                        GemmBias{bias.cols, bias.rows});
  transpose_into(M, N, product.data(), C, ldc, accumulate);
}

// The panels of a weight packed by pack_weight_f32: per K block, every
// 16-column panel of W^T, so block (k0, j0) is found, never packed.
struct PackedWeightPanels {
  const float* data;
  int64_t rows;  // M, the weight's rows
  static const float* panels(const void* context, int64_t k0, int64_t kc, int64_t j0, int64_t, float*) {
    const auto* w = static_cast<const PackedWeightPanels*>(context);
    return packed_weight_block(w->data, w->rows, k0, kc, j0);
  }
};

// The unpacked product of few rows split by columns across threads.
void unpacked_parallel(int64_t M, int64_t N, int64_t K, MatrixF32 A, MatrixF32 B, OutputF32 C, bool accumulate) {
  parallel::parallel_for(
      N, kUnpackedAlign, parallel::min_items_for(M * K),
      [&](int64_t j0, int64_t j1) {
        const MatrixF32 b{B.data + j0 * B.col_stride, B.row_stride, B.col_stride};
        gemm_unpacked_f32(M, j1 - j0, K, A, b, OutputF32{C.data + j0 * C.col_stride, C.row_stride, C.col_stride},
                          accumulate);
      },
      4);
}

}  // namespace

void gemm_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, MatrixF32 B, float* C, int64_t ldc, bool accumulate,
              GemmBias bias) {
  if (M <= 0 || N <= 0) return;
  const bool few_rows = M <= kMaxUnpackedRows;
  if (K <= 0 || (!bias.empty() && (few_rows || N == 1))) {
    // The unpacked paths accumulate onto C filled with the bias.
    if (!accumulate) fill_bias(M, N, C, ldc, bias);
    if (K <= 0) return;
    accumulate = true;
  }
  // Few rows (a small batch, a recurrent step): B is read in place, once per four rows.
  if (few_rows) return unpacked_parallel(M, N, K, A, B, OutputF32{C, ldc, 1}, accumulate);
  // One column: C^T[1, M] = B^T[1, K] * A^T[K, M].
  if (N == 1) return unpacked_parallel(1, M, K, B.transposed(), A.transposed(), OutputF32{C, 0, ldc}, accumulate);
  if (prefer_transposed(M, N, K)) {
    const StridedB flipped{A.transposed()};
    return transposed_product(M, N, K, PanelSourceF32{&StridedB::panels, &flipped}, B, C, ldc, accumulate, bias);
  }
  const StridedB strided{B};
  gemm_blocked_parallel(M, N, K, A, PanelSourceF32{&StridedB::panels, &strided}, C, ldc, accumulate, bias);
}

void gemm_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, PanelSourceF32 B, float* C, int64_t ldc,
              bool accumulate, GemmBias bias) {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    if (!accumulate) fill_bias(M, N, C, ldc, bias);
    return;
  }
  gemm_blocked_parallel(M, N, K, A, B, C, ldc, accumulate, bias);
}

bool gemm_f32_computes_transposed(int64_t M, int64_t N, int64_t K) {
  return M > kMaxUnpackedRows && N > 1 && prefer_transposed(M, N, K);
}

int64_t packed_weight_floats(int64_t M, int64_t K) { return padded_weight_rows(M) * std::max<int64_t>(K, 0); }

void pack_weight_f32(int64_t M, int64_t K, MatrixF32 W, float* packed) {
  const int64_t padded = padded_weight_rows(M);
  for (int64_t k0 = 0; k0 < K; k0 += kBlockK)
    pack_b_block(W.transposed(), k0, std::min(kBlockK, K - k0), 0, M, packed + padded * k0);
}

void gemm_packed_weight_f32(int64_t M, int64_t N, int64_t K, const float* packed, MatrixF32 B, float* C,
                            int64_t ldc, const float* row_bias) {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) return fill_bias(M, N, C, ldc, GemmBias{row_bias, nullptr});
  const PackedWeightPanels weight{packed, M};
  transposed_product(M, N, K, PanelSourceF32{&PackedWeightPanels::panels, &weight}, B, C, ldc, false,
                     GemmBias{row_bias, nullptr});
}

void gemm_packed_weight_t_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, const float* packed, float* C,
                              int64_t ldc, const float* col_bias) {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) return fill_bias(M, N, C, ldc, GemmBias{nullptr, col_bias});
  if (M <= kMaxUnpackedRows) {
    // Split by panels: every output is computed by one thread, as on one thread.
    parallel::parallel_for(
        N, kTileCols, parallel::min_items_for(M * K),
        [&](int64_t j0, int64_t j1) { packed_weight_rows_f32(M, N, K, A, packed, j0, j1, C, ldc, col_bias); }, 4);
    return;
  }
  const PackedWeightPanels weight{packed, N};
  gemm_blocked_parallel(M, N, K, A, PanelSourceF32{&PackedWeightPanels::panels, &weight}, C, ldc, false,
                        GemmBias{nullptr, col_bias});
}

}  // namespace pt2web
