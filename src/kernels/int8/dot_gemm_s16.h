// Integer products for quantized operators: C[m][n] = sum_k A[m][k] * B[n][k]
// over int16 rows (both operands already shifted by their zero points, so
// values lie in [-255, 255]), accumulated in int32. Both operands are read
// along k, so a linear layer's weight [N, K] and im2col rows [P, K] are used
// as they are.
//
// dot_gemm_s16 is the fast kernel: wasm SIMD128 i32x4.dot_i16x8_s when built
// with -msimd128, SSE2's pmaddwd natively (the same instruction), a plain loop
// elsewhere. From 4 rows of A and B up, B is packed per call into panels of
// four rows with k pairs interleaved, and 4x8 tiles of C accumulate a
// splatted pair of A against a panel (two products into four outputs per
// instruction, no horizontal sums); smaller products take four B rows per A
// row, k in steps of 8.
// dot_gemm_s16_reference is the plain loop it is tested against.
//
// dot_gemm_packed is the same tile loop on operands prepared ahead: A rows
// padded to an even length with a zero, either int16 (weights widened once
// at load: a pair is one 32-bit load) or int8 weights whose zero points are
// 0, read in place (a pair is a 16-bit load sign-extended in the register:
// wasm load16_splat + extend), and B already in panels (dot_panels.h). Each
// 4x8 tile is requantized from registers into the output
// (requantize.h: RequantizedOutput), no int32 array in between: int8/uint8
// rows through int8_lanes.h's epilogue, float32 tiles stored transposed (a
// linear layer's) transposed in registers, others through store_requantized.
// A range of panels [panel_first, panel_end) lets threads split the columns.
//
// C[m][n] is written at c[m * ldc_m + n * ldc_n]. Preconditions (checked by
// callers): sizes >= 0, |A|, |B| <= 255 and K <= kMaxDotK, so no int32 sum
// overflows; rows are contiguous along k. The packing buffer is
// thread-local and grows only.
#pragma once

#include <cstdint>

#include "kernels/int8/requantize.h"

namespace pt2web {

constexpr int64_t kMaxDotK = 32768;  // 32768 * 255 * 255 < 2^31

struct DotGemmArgs {
  int64_t M = 0, N = 0, K = 0;
  const int16_t* a = nullptr;
  int64_t lda = 0;  // between rows of A
  const int16_t* b = nullptr;
  int64_t ldb = 0;  // between rows of B
  int32_t* c = nullptr;
  int64_t ldc_m = 0, ldc_n = 1;
};

void dot_gemm_s16(const DotGemmArgs& g);

struct PackedDotArgs {
  int64_t M = 0, N = 0, K = 0;
  const int16_t* a = nullptr;  // M rows of K values (+ a zero when K is odd)
  const int8_t* a8 = nullptr;  // or int8 rows (weights with zero points 0), read instead of `a` when set
  int64_t lda = 0;             // even
  const int16_t* panels = nullptr;  // B (N rows of K values) packed by dot_panels.h
  int64_t panel_first = 0, panel_end = -1;  // -1: to the last panel
};

void dot_gemm_packed(const PackedDotArgs& g, const RequantizedOutput& out);
void dot_gemm_s16_reference(const DotGemmArgs& g);

}  // namespace pt2web
