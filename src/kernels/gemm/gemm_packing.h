// Packing for the blocked GEMM (gemm.cpp): copies a block of A or B into
// the panel order the micro-kernel streams through, zero-padding the last
// panel so the micro-kernel never needs a tail case in k or in the tile.
//
//   A block [mc, kc] -> ceil(mc/MR) panels; panel p holds rows p*MR.. as
//     kc groups of MR floats (row r of step k at [k*MR + r]).
//   B block [kc, nc] -> ceil(nc/NR) panels; panel p holds columns p*NR.. as
//     kc groups of NR floats (column c of step k at [k*NR + c]).
#pragma once

#include <cstdint>

#include "kernels/gemm/gemm.h"

namespace pt2web::gemm_detail {

constexpr int64_t kTileRows = 2;    // MR
constexpr int64_t kTileCols = 16;   // NR
constexpr int64_t kBlockK = 256;    // KC: a B panel of 256x16 floats is 16 KiB

inline int64_t panel_count(int64_t n, int64_t width) { return (n + width - 1) / width; }

// A weight W [M, K] packed ahead by pack_weight_f32 (gemm.h) holds, for each
// K block k0 (kc = min(KC, K - k0) steps), the panels of W^T's columns
// 0 .. padded_weight_rows(M): block k0 starts at padded_weight_rows(M) * k0,
// and the panel of columns j0 .. j0+NR within it at j0 * kc.
inline int64_t padded_weight_rows(int64_t M) { return panel_count(M, kTileCols) * kTileCols; }
inline const float* packed_weight_block(const float* packed, int64_t M, int64_t k0, int64_t kc, int64_t j0) {
  return packed + padded_weight_rows(M) * k0 + j0 * kc;
}

// A[i0 .. i0+mc, k0 .. k0+kc] into dst (panel_count(mc, MR) * MR * kc floats).
void pack_a_block(MatrixF32 A, int64_t i0, int64_t mc, int64_t k0, int64_t kc, float* dst);

// B[k0 .. k0+kc, j0 .. j0+nc] into dst (panel_count(nc, NR) * NR * kc floats).
void pack_b_block(MatrixF32 B, int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst);

}  // namespace pt2web::gemm_detail
