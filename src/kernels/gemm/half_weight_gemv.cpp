#include "kernels/gemm/half_weight_gemv.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/parallel/thread_pool.h"
#include "kernels/vec4.h"
#include "tensor/half.h"

namespace pt2web {

namespace {

using simd::Vec4;
typedef uint16_t U16x8 __attribute__((vector_size(16)));
typedef uint32_t U32x4 __attribute__((vector_size(16)));

constexpr int kMaxRows = 4;

inline U16x8 load8(const uint16_t* p) {
  U16x8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// A float16's bits (in the low half of each lane) as float32: the exponent
// and mantissa shifted into place and rescaled by 2^112 (the exponent biases'
// difference), which is exact for normal and subnormal values alike; the
// largest exponent (inf, NaN) gets float32's, and the sign goes back on.
inline Vec4 float16_to_f32(U32x4 h) {
  const U32x4 magnitude = (h & 0x7fffu) << 13;
  Vec4 value;
  std::memcpy(&value, &magnitude, sizeof value);
  value *= simd::splat4(0x1p112f);
  U32x4 bits;
  std::memcpy(&bits, &value, sizeof bits);
  const U32x4 special = (U32x4)((h & 0x7c00u) == 0x7c00u);  // all ones where inf or NaN
  bits |= (special & 0x7f800000u) | ((h & 0x8000u) << 16);
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Eight 16-bit weights as two float32 vectors: the even elements (0, 2, 4,
// 6) and the odd ones. Read as four 32-bit lanes, each lane holds an even
// element in its low half and an odd one in its high half, so one shift or
// mask per vector widens them (a bfloat16 is the high half of its float32),
// with no shuffle; the activations are put in the same order once per call
// (even_odd_rows).
template <HalfKind kind>
inline void widen8(const uint16_t* p, Vec4& even, Vec4& odd) {
  const U16x8 v = load8(p);
  U32x4 u;
  std::memcpy(&u, &v, sizeof u);
  if constexpr (kind == HalfKind::BFloat16) {
    const U32x4 e = u << 16, o = u & 0xffff0000u;
    std::memcpy(&even, &e, sizeof even);
    std::memcpy(&odd, &o, sizeof odd);
  } else {
    even = float16_to_f32(u & 0xffffu);
    odd = float16_to_f32(u >> 16);
  }
}

// Rows of A with each full block of eight elements reordered as widen8
// leaves the weights, [x0 x2 x4 x6 x1 x3 x5 x7] (the tail keeps its order),
// written to `buffer`; out[r] is where row r starts there.
void even_odd_rows(int rows, int64_t K, const float* const* a, std::vector<float>& buffer, const float** out) {
  buffer.resize(static_cast<size_t>(rows * K));
  for (int r = 0; r < rows; ++r) {
    float* row = buffer.data() + r * K;
    int64_t k = 0;
    for (; k + 8 <= K; k += 8)
      for (int e = 0; e < 4; ++e) {
        row[k + e] = a[r][k + 2 * e];
        row[k + 4 + e] = a[r][k + 2 * e + 1];
      }
    for (; k < K; ++k) row[k] = a[r][k];
    out[r] = row;
  }
}

template <HalfKind kind>
inline float widen1(uint16_t bits) {
  if constexpr (kind == HalfKind::BFloat16) {
    BFloat16 b;
    b.bits = bits;
    return static_cast<float>(b);
  } else {
    return Half::to_float(bits);
  }
}

// One row: one weight row at a time, four sums along K (a single stream per
// column, as the float32 dot product of gemv.cpp).
template <HalfKind kind>
__attribute__((noinline)) float dot_row(const float* x, const uint16_t* w, int64_t K) {
  Vec4 s0{}, s1{}, s2{}, s3{};
  int64_t k = 0;
  for (; k + 16 <= K; k += 16) {
    Vec4 w0, w1, w2, w3;
    widen8<kind>(w + k, w0, w1);
    widen8<kind>(w + k + 8, w2, w3);
    s0 += simd::load4(x + k) * w0;
    s1 += simd::load4(x + k + 4) * w1;
    s2 += simd::load4(x + k + 8) * w2;
    s3 += simd::load4(x + k + 12) * w3;
  }
  for (; k + 8 <= K; k += 8) {
    Vec4 w0, w1;
    widen8<kind>(w + k, w0, w1);
    s0 += simd::load4(x + k) * w0;
    s1 += simd::load4(x + k + 4) * w1;
  }
  float sum = simd::sum4((s0 + s1) + (s2 + s3));
  for (; k < K; ++k) sum += x[k] * widen1<kind>(w[k]);
  return sum;
}

// R rows (2 to 4) by two weight rows: 2R accumulators, each weight vector
// used R times.
template <HalfKind kind, int R, int P>
__attribute__((noinline)) void dot_tile(int64_t K, const float* const* a, const uint16_t* w, int64_t ldw, float* c,
                                        int64_t ldc, const float* bias) {
  Vec4 acc[R][P] = {};
  int64_t k = 0;
  for (; k + 8 <= K; k += 8) {
    for (int p = 0; p < P; ++p) {
      Vec4 w0, w1;
      widen8<kind>(w + p * ldw + k, w0, w1);
      for (int r = 0; r < R; ++r) acc[r][p] += simd::load4(a[r] + k) * w0 + simd::load4(a[r] + k + 4) * w1;
    }
  }
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p) {
      float sum = simd::sum4(acc[r][p]);
      for (int64_t kk = k; kk < K; ++kk) sum += a[r][kk] * widen1<kind>(w[p * ldw + kk]);
      c[r * ldc + p] = (bias ? bias[p] : 0.0f) + sum;
    }
}

template <HalfKind kind, int R>
void rows_by_columns(int64_t N, int64_t K, const float* const* a, const uint16_t* w, int64_t ldw, float* c,
                     int64_t ldc, const float* bias) {
  if constexpr (R == 1) {
    for (int64_t j = 0; j < N; ++j) c[j] = (bias ? bias[j] : 0.0f) + dot_row<kind>(a[0], w + j * ldw, K);
  } else {
    int64_t j = 0;
    for (; j + 2 <= N; j += 2) dot_tile<kind, R, 2>(K, a, w + j * ldw, ldw, c + j, ldc, bias ? bias + j : nullptr);
    for (; j < N; ++j) dot_tile<kind, R, 1>(K, a, w + j * ldw, ldw, c + j, ldc, bias ? bias + j : nullptr);
  }
}

template <HalfKind kind>
void columns(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const uint16_t* w, int64_t ldw, float* C,
             int64_t ldc, const float* bias) {
  for (int64_t i0 = 0; i0 < M; i0 += kMaxRows) {
    const int rows = static_cast<int>(std::min<int64_t>(kMaxRows, M - i0));
    const float* given[kMaxRows] = {};
    for (int r = 0; r < rows; ++r) given[r] = A + (i0 + r) * lda;
    thread_local std::vector<float> reordered;
    const float* a[kMaxRows] = {};
    even_odd_rows(rows, K, given, reordered, a);
    float* c = C + i0 * ldc;
    switch (rows) {
      case 1: rows_by_columns<kind, 1>(N, K, a, w, ldw, c, ldc, bias); break;
      case 2: rows_by_columns<kind, 2>(N, K, a, w, ldw, c, ldc, bias); break;
      case 3: rows_by_columns<kind, 3>(N, K, a, w, ldw, c, ldc, bias); break;
      default: rows_by_columns<kind, 4>(N, K, a, w, ldw, c, ldc, bias); break;
    }
  }
}

}  // namespace

void gemm_half_weight_t_f32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, HalfWeight W, float* C,
                            int64_t ldc, const float* bias) {
  if (M <= 0 || N <= 0) return;
  // Columns in parts of at least 8 rows of W; a part's weight rows are one
  // contiguous stretch of memory, which each thread streams.
  parallel::parallel_for(N, 8, parallel::min_items_for(M * K), [&](int64_t j0, int64_t j1) {
    const uint16_t* w = W.data + j0 * W.row_stride;
    const float* b = bias ? bias + j0 : nullptr;
    if (W.kind == HalfKind::BFloat16)
      columns<HalfKind::BFloat16>(M, j1 - j0, K, A, lda, w, W.row_stride, C + j0, ldc, b);
    else
      columns<HalfKind::Float16>(M, j1 - j0, K, A, lda, w, W.row_stride, C + j0, ldc, b);
  });
}

}  // namespace pt2web
