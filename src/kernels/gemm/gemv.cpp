#include "kernels/gemm/gemv.h"

#include <algorithm>
#include <vector>

#include "kernels/vec4.h"

namespace pt2web::gemm_detail {

namespace {

using simd::Vec4;

constexpr int kMaxRows = 4;

inline void put(float* c, float value, bool accumulate) { *c = accumulate ? *c + value : value; }

OutputF32 columns_from(OutputF32 c, int64_t j) { return {c.data + j * c.col_stride, c.row_stride, c.col_stride}; }

// ---- B's rows contiguous: C's rows stay in L1 while B streams past ----
// Walking down a strip of B's columns would touch a new page on every row
// (no prefetch across pages); streaming whole rows of B, U at a time, reads
// B in order and costs one load and store of C per U rows.

// C_r[0..N) += sum_u A(r, u) * B[u, 0..N) for U consecutive rows of B
// (b[u * ldb]); av[r][u] holds A(r, u).
template <int R, int U>
__attribute__((noinline)) void add_rows_of_b(int64_t N, const float (&av)[R][U], const float* b, int64_t ldb, float* const* c) {
  Vec4 as[R][U];
  for (int r = 0; r < R; ++r)
    for (int u = 0; u < U; ++u) as[r][u] = simd::splat4(av[r][u]);
  // Local copies: stores to C cannot change them, so they stay in registers.
  float* out[R];
  const float* rows[U];
  for (int r = 0; r < R; ++r) out[r] = c[r];
  for (int u = 0; u < U; ++u) rows[u] = b + u * ldb;
  int64_t j = 0;
  if constexpr (R == 1) {
    // Eight columns a step: half the loop and C traffic per element of B.
    for (; j + 8 <= N; j += 8) {
      Vec4 lo = simd::load4(out[0] + j), hi = simd::load4(out[0] + j + 4);
      for (int u = 0; u < U; ++u) {
        lo += as[0][u] * simd::load4(rows[u] + j);
        hi += as[0][u] * simd::load4(rows[u] + j + 4);
      }
      simd::store4(out[0] + j, lo), simd::store4(out[0] + j + 4, hi);
    }
  }
  for (; j + 4 <= N; j += 4) {
    Vec4 bv[U];
    for (int u = 0; u < U; ++u) bv[u] = simd::load4(rows[u] + j);
    for (int r = 0; r < R; ++r) {
      Vec4 sum = simd::load4(out[r] + j);
      for (int u = 0; u < U; ++u) sum += as[r][u] * bv[u];
      simd::store4(out[r] + j, sum);
    }
  }
  for (; j < N; ++j)
    for (int r = 0; r < R; ++r)
      for (int u = 0; u < U; ++u) out[r][j] += av[r][u] * rows[u][j];
}

// Row r of A is a[r][k * a_step]; C's rows are contiguous.
template <int R>
void row_major_rows(int64_t N, int64_t K, const float* const* a, int64_t a_step, MatrixF32 B, float* const* c) {
  constexpr int U = R == 1 ? 4 : 2;  // R*U broadcast values held in registers
  int64_t k = 0;
  for (; k + U <= K; k += U) {
    float av[R][U];
    for (int r = 0; r < R; ++r)
      for (int u = 0; u < U; ++u) av[r][u] = a[r][(k + u) * a_step];
    add_rows_of_b<R, U>(N, av, B.data + k * B.row_stride, B.row_stride, c);
  }
  for (; k < K; ++k) {
    float av[R][1];
    for (int r = 0; r < R; ++r) av[r][0] = a[r][k * a_step];
    add_rows_of_b<R, 1>(N, av, B.data + k * B.row_stride, B.row_stride, c);
  }
}

// The row-major kernel writes contiguous rows of C, starting from zero
// unless accumulating; other layouts of C go through a thread-local row buffer.
template <int R>
void row_major_into(int64_t N, int64_t K, const float* const* a, int64_t a_step, MatrixF32 B, OutputF32 c,
                    bool accumulate) {
  thread_local std::vector<float> buffer;
  float* rows[R];
  const bool direct = c.col_stride == 1;
  if (!direct) buffer.resize(static_cast<size_t>(R * N));
  for (int r = 0; r < R; ++r) {
    rows[r] = direct ? c.data + r * c.row_stride : buffer.data() + r * N;
    if (!direct || !accumulate) std::fill(rows[r], rows[r] + N, 0.0f);
  }
  row_major_rows<R>(N, K, a, a_step, B, rows);
  if (direct) return;
  for (int r = 0; r < R; ++r)
    for (int64_t j = 0; j < N; ++j) put(c.data + r * c.row_stride + j * c.col_stride, rows[r][j], accumulate);
}

// ---- B's columns contiguous: dot products along K ----

// Row r of A is a[r][0..K) and column p of the tile b[p * ldb + 0..K).
template <int R, int P>
__attribute__((noinline)) void dot_tile(int64_t K, const float* const* a, const float* b, int64_t ldb, OutputF32 c, bool accumulate) {
  Vec4 acc[R][P] = {};
  int64_t k = 0;
  for (; k + 4 <= K; k += 4) {
    Vec4 x[R];
    for (int r = 0; r < R; ++r) x[r] = simd::load4(a[r] + k);
    for (int p = 0; p < P; ++p) {
      const Vec4 w = simd::load4(b + p * ldb + k);
      for (int r = 0; r < R; ++r) acc[r][p] += x[r] * w;
    }
  }
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p) {
      float sum = simd::sum4(acc[r][p]);
      for (int64_t kk = k; kk < K; ++kk) sum += a[r][kk] * b[p * ldb + kk];
      put(c.data + r * c.row_stride + p * c.col_stride, sum, accumulate);
    }
}

// One row of A: one column at a time, four sums along K (a single stream of
// B per column prefetches better than eight; measured about 25% faster in
// wasm than an eight-column tile).
__attribute__((noinline)) float dot(const float* x, const float* y, int64_t K) {
  Vec4 s0{}, s1{}, s2{}, s3{};
  int64_t k = 0;
  for (; k + 16 <= K; k += 16) {
    s0 += simd::load4(x + k) * simd::load4(y + k);
    s1 += simd::load4(x + k + 4) * simd::load4(y + k + 4);
    s2 += simd::load4(x + k + 8) * simd::load4(y + k + 8);
    s3 += simd::load4(x + k + 12) * simd::load4(y + k + 12);
  }
  for (; k + 4 <= K; k += 4) s0 += simd::load4(x + k) * simd::load4(y + k);
  float sum = simd::sum4((s0 + s1) + (s2 + s3));
  for (; k < K; ++k) sum += x[k] * y[k];
  return sum;
}

template <int R>
void dot_rows(int64_t N, int64_t K, const float* const* a, MatrixF32 B, OutputF32 c, bool accumulate) {
  if constexpr (R == 1) {
    for (int64_t j = 0; j < N; ++j) put(c.data + j * c.col_stride, dot(a[0], B.data + j * B.col_stride, K), accumulate);
    return;
  }
  constexpr int P = R == 2 ? 4 : 2;  // R*P <= 8 accumulators
  int64_t j = 0;
  for (; j + P <= N; j += P) dot_tile<R, P>(K, a, B.data + j * B.col_stride, B.col_stride, columns_from(c, j), accumulate);
  for (; j < N; ++j) dot_tile<R, 1>(K, a, B.data + j * B.col_stride, B.col_stride, columns_from(c, j), accumulate);
}

void plain_rows(int rows, int64_t N, int64_t K, const float* const* a, int64_t a_step, MatrixF32 B, OutputF32 c,
                bool accumulate) {
  for (int r = 0; r < rows; ++r)
    for (int64_t j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (int64_t k = 0; k < K; ++k) sum += a[r][k * a_step] * B.at(k, j);
      put(c.data + r * c.row_stride + j * c.col_stride, sum, accumulate);
    }
}

// Calls kernel<R>() for R = rows (1..4).
template <template <int> class Kernel, class... Args>
void for_row_count(int rows, Args&&... args) {
  switch (rows) {
    case 1: return Kernel<1>::run(args...);
    case 2: return Kernel<2>::run(args...);
    case 3: return Kernel<3>::run(args...);
    default: return Kernel<4>::run(args...);
  }
}

template <int R>
struct RowMajorRows {
  template <class... Args>
  static void run(Args&&... args) { row_major_into<R>(args...); }
};

template <int R>
struct DotRows {
  template <class... Args>
  static void run(Args&&... args) { dot_rows<R>(args...); }
};

}  // namespace

void gemm_unpacked_f32(int64_t M, int64_t N, int64_t K, MatrixF32 A, MatrixF32 B, OutputF32 C, bool accumulate) {
  if (M <= 0 || N <= 0) return;
  thread_local std::vector<float> contiguous_a;
  for (int64_t i0 = 0; i0 < M; i0 += kMaxRows) {
    const int rows = static_cast<int>(std::min<int64_t>(kMaxRows, M - i0));
    const float* a[kMaxRows] = {};
    for (int r = 0; r < rows; ++r) a[r] = A.data + (i0 + r) * A.row_stride;
    const OutputF32 c{C.data + i0 * C.row_stride, C.row_stride, C.col_stride};
    if (B.col_stride == 1) {
      for_row_count<RowMajorRows>(rows, N, K, a, A.col_stride, B, c, accumulate);
    } else if (B.row_stride == 1) {
      if (A.col_stride != 1) {
        // The dot products read rows of A as vectors: copy strided rows.
        contiguous_a.resize(static_cast<size_t>(rows * K));
        for (int r = 0; r < rows; ++r) {
          float* row = contiguous_a.data() + r * K;
          for (int64_t k = 0; k < K; ++k) row[k] = a[r][k * A.col_stride];
          a[r] = row;
        }
      }
      for_row_count<DotRows>(rows, N, K, a, B, c, accumulate);
    } else {
      plain_rows(rows, N, K, a, A.col_stride, B, c, accumulate);
    }
  }
}

}  // namespace pt2web::gemm_detail
