// Products with few rows (a linear layer at small batch, a recurrent step,
// and by transposition a product with one column): nothing is packed, B is
// read in place, once per group of up to four rows of A. Packing B would
// cost as much as the arithmetic when each element of B takes part in only
// a few multiply-adds.
//
// Two kernels, chosen by B's layout:
//   - B's rows contiguous ([K, N] row-major): B streams past in row order,
//     two or four rows at a time (one row of A: four rows of B, eight
//     columns a step), onto the rows of C held in L1 (walking a
//     strip of columns down K would touch a new page per row of B, which
//     the hardware does not prefetch);
//   - B's columns contiguous (a linear layer's weight [N, K] read as W^T):
//     dot products, a tile of rows by columns whose four-lane sums run along
//     K and are reduced once at the end.
// At most eight accumulators or broadcast values live at once (more spill
// under V8). Other strides take a plain loop. No heap allocation after the
// first call on a thread (a strided A, or a strided C for the row kernel, goes
// through thread-local buffers that only grow).
// Preconditions (checked by callers): sizes >= 0, C does not overlap A or B.
#pragma once

#include <cstdint>

#include "kernels/gemm/gemm.h"

namespace pt2web::gemm_detail {

// Where C's elements are: (i, j) at data[i*row_stride + j*col_stride].
struct OutputF32 {
  float* data = nullptr;
  int64_t row_stride = 0;
  int64_t col_stride = 1;
};

// C[i, j] (+)= sum_k A(i, k) * B(k, j) for i < M, j < N, four rows of A at a
// time (each group of four reads B once).
void gemm_unpacked_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, MatrixF32 B, OutputF32 C, bool accumulate);

}  // namespace pt2web::gemm_detail
