// Matrix multiplication kernels: C[M,N] = A[M,K] * B[K,N] (or C += A*B) on
// float32 matrices. A and B are read through element strides, so transposed
// or otherwise strided operands (a linear layer's weight, a permuted view)
// need no copy: the fast path packs them into panels anyway. C is row-major
// with row stride ldc.
//
// gemm_f32 is the fast implementation (packed panels, a 2x16 vector
// micro-kernel, GEMV paths for products with fewer rows than a tile or one
// column);
// gemm_f32_reference is the plain loop it is tested against.
// Neither allocates on the heap after the first call on a thread (packing
// buffers are thread-local and grow only). Preconditions (checked by
// callers): sizes >= 0, C does not overlap A or B.
#pragma once

#include <cstdint>

namespace pt2web {

// A read-only float32 matrix: element (i, j) is data[i*row_stride + j*col_stride].
struct MatrixF32 {
  const float* data = nullptr;
  int64_t row_stride = 0;
  int64_t col_stride = 1;

  float at(int64_t i, int64_t j) const { return data[i * row_stride + j * col_stride]; }
  // The same matrix transposed (a view, no copy).
  MatrixF32 transposed() const { return {data, col_stride, row_stride}; }
};

// A bias the product starts from instead of zero (when not accumulating):
// C[i][j] = rows[i] + cols[j] + sum_k A[i][k] B[k][j], either pointer null.
// Starting the accumulators from the bias saves a pass over C compared with
// filling C first and accumulating.
struct GemmBias {
  const float* rows = nullptr;  // M values
  const float* cols = nullptr;  // N values
  bool empty() const { return !rows && !cols; }
};

void gemm_f32_reference(int64_t M, int64_t N, int64_t K, MatrixF32 A, MatrixF32 B, float* C, int64_t ldc,
                        bool accumulate, GemmBias bias = {});

// With accumulate, C += A*B and `bias` must be empty.
void gemm_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, MatrixF32 B, float* C, int64_t ldc, bool accumulate,
              GemmBias bias = {});

// A B operand that is not a strided matrix but produces its own packed
// blocks: panels(context, k0, kc, j0, nc, scratch) returns B[k0 .. k0+kc,
// j0 .. j0+nc] in the panel layout of gemm_packing.h, either written into
// `scratch` (room for the whole block) or found elsewhere (weights packed
// ahead of time). j0 is a multiple of the panel width. Used for the column
// matrix of a convolution, gathered straight from the image.
struct PanelSourceF32 {
  const float* (*panels)(const void* context, int64_t k0, int64_t kc, int64_t j0, int64_t nc,
                         float* scratch) = nullptr;
  const void* context = nullptr;
};

// gemm_f32 with B given by its panels; always the packed (blocked) path.
void gemm_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, PanelSourceF32 B, float* C, int64_t ldc,
              bool accumulate, GemmBias bias = {});

// A weight W [M, K] packed once, ahead of the products that read it: the
// 16-column panels of W^T per K block (gemm_packing.h), the B operand of
// the transposed product C^T = B^T W^T. Products with a packed weight skip
// the per-call strided gather of W^T that narrow products (N < 256) pay when
// gemm_f32 computes them transposed (docs/DECISIONS.md has the figures).
// `packed` holds packed_weight_floats(M, K) floats.
int64_t packed_weight_floats(int64_t M, int64_t K);
// Whether gemm_f32 computes an M x N x K product transposed (narrow N): the
// products a packed weight speeds up.
bool gemm_f32_computes_transposed(int64_t M, int64_t N, int64_t K);
void pack_weight_f32(int64_t M, int64_t K, MatrixF32 W, float* packed);
// C[M, N] = W B (+ row_bias, M values, may be null) with W packed as above.
void gemm_packed_weight_f32(int64_t M, int64_t N, int64_t K, const float* packed, MatrixF32 B, float* C,
                            int64_t ldc, const float* row_bias);

// C[M, N] = A[M, K] W^T (+ col_bias, N values, may be null) with a weight
// W [N, K] packed as above by pack_weight_f32(N, K, ...): a product that
// reads the same weight many times (a recurrent layer's steps). Up to eight
// rows stream the panels in place (packed_weight_rows.h); more take the
// blocked path with the panels as its B blocks, so no call packs the weight.
void gemm_packed_weight_t_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, const float* packed, float* C,
                              int64_t ldc, const float* col_bias);

// Row-major operands with row strides lda and ldb.
inline void gemm_f32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
                     float* C, int64_t ldc, bool accumulate) {
  gemm_f32(M, N, K, MatrixF32{A, lda, 1}, MatrixF32{B, ldb, 1}, C, ldc, accumulate);
}

}  // namespace pt2web
