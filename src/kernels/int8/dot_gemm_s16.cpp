#include "kernels/int8/dot_gemm_s16.h"

#include <algorithm>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pt2web {

void dot_gemm_s16_reference(const DotGemmArgs& g) {
  for (int64_t m = 0; m < g.M; ++m)
    for (int64_t n = 0; n < g.N; ++n) {
      int32_t sum = 0;
      for (int64_t k = 0; k < g.K; ++k) sum += int32_t(g.a[m * g.lda + k]) * int32_t(g.b[n * g.ldb + k]);
      g.c[m * g.ldc_m + n * g.ldc_n] = sum;
    }
}

namespace {

// Four int32 lanes and the pairwise multiply-add of eight int16 lanes
// (a0*b0 + a1*b1, ...), one instruction on both targets.
#if defined(__wasm_simd128__)
using Acc = v128_t;
inline Acc acc_zero() { return wasm_i32x4_splat(0); }
inline Acc load8(const int16_t* p) { return wasm_v128_load(p); }
inline Acc dot_add(Acc acc, Acc a, Acc b) { return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(a, b)); }
inline Acc splat_pair(int32_t pair) { return wasm_i32x4_splat(pair); }
inline void store4(int32_t* p, Acc v) { wasm_v128_store(p, v); }
inline int32_t lanes_sum(Acc v) {
  return wasm_i32x4_extract_lane(v, 0) + wasm_i32x4_extract_lane(v, 1) + wasm_i32x4_extract_lane(v, 2) +
         wasm_i32x4_extract_lane(v, 3);
}
constexpr bool kVector = true;
#elif defined(__SSE2__)
using Acc = __m128i;
inline Acc acc_zero() { return _mm_setzero_si128(); }
inline Acc load8(const int16_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline Acc dot_add(Acc acc, Acc a, Acc b) { return _mm_add_epi32(acc, _mm_madd_epi16(a, b)); }
inline Acc splat_pair(int32_t pair) { return _mm_set1_epi32(pair); }
inline void store4(int32_t* p, Acc v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline int32_t lanes_sum(Acc v) {
  alignas(16) int32_t lanes[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), v);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
constexpr bool kVector = true;
#else
constexpr bool kVector = false;
#endif

#if defined(__wasm_simd128__) || defined(__SSE2__)
int32_t tail_dot(const int16_t* a, const int16_t* b, int64_t from, int64_t K) {
  int32_t sum = 0;
  for (int64_t k = from; k < K; ++k) sum += int32_t(a[k]) * int32_t(b[k]);
  return sum;
}

// One A row against B rows n..n+3.
void row_by_four(const DotGemmArgs& g, const int16_t* a, int64_t n, int32_t* c) {
  const int16_t* b0 = g.b + n * g.ldb;
  const int16_t* b1 = b0 + g.ldb;
  const int16_t* b2 = b1 + g.ldb;
  const int16_t* b3 = b2 + g.ldb;
  Acc s0 = acc_zero(), s1 = acc_zero(), s2 = acc_zero(), s3 = acc_zero();
  const int64_t k8 = g.K & ~int64_t(7);
  for (int64_t k = 0; k < k8; k += 8) {
    const Acc x = load8(a + k);
    s0 = dot_add(s0, x, load8(b0 + k));
    s1 = dot_add(s1, x, load8(b1 + k));
    s2 = dot_add(s2, x, load8(b2 + k));
    s3 = dot_add(s3, x, load8(b3 + k));
  }
  c[0] = lanes_sum(s0) + tail_dot(a, b0, k8, g.K);
  c[g.ldc_n] = lanes_sum(s1) + tail_dot(a, b1, k8, g.K);
  c[2 * g.ldc_n] = lanes_sum(s2) + tail_dot(a, b2, k8, g.K);
  c[3 * g.ldc_n] = lanes_sum(s3) + tail_dot(a, b3, k8, g.K);
}

// Pair-interleaved panels of B: panel p, pair kp holds (b[4p+j][2kp], b[4p+j][2kp+1])
// for j = 0..3 (zeros past N and K), so one dot_i16x8 of a splatted A pair
// with it adds two products into four different outputs, and no horizontal
// sums are needed. Thread-local, grows only.
const int16_t* pack_pair_panels(const DotGemmArgs& g, int64_t pairs, int64_t panels) {
  thread_local std::vector<int16_t> buffer;
  buffer.resize(static_cast<size_t>(panels * pairs * 8));
  int16_t* out = buffer.data();
  for (int64_t p = 0; p < panels; ++p)
    for (int64_t kp = 0; kp < pairs; ++kp)
      for (int64_t j = 0; j < 4; ++j, out += 2) {
        const int64_t n = 4 * p + j, k = 2 * kp;
        const int16_t* b = g.b + n * g.ldb;
        out[0] = n < g.N ? b[k] : int16_t(0);
        out[1] = n < g.N && k + 1 < g.K ? b[k + 1] : int16_t(0);
      }
  return buffer.data();
}

// A's pair (a[2kp], a[2kp+1]) as one int32 (a zero past K).
inline int32_t a_pair(const int16_t* a, int64_t kp, int64_t K) {
  const uint16_t lo = static_cast<uint16_t>(a[2 * kp]);
  const uint16_t hi = 2 * kp + 1 < K ? static_cast<uint16_t>(a[2 * kp + 1]) : 0;
  return static_cast<int32_t>(static_cast<uint32_t>(lo) | (static_cast<uint32_t>(hi) << 16));
}

// Four A rows (m..m+3, repeating the last row past M) against two panels:
// eight accumulators of four outputs each.
void panel_tile(const DotGemmArgs& g, const int16_t* panels, int64_t pairs, int64_t m, int64_t p) {
  const int16_t* rows[4];
  for (int64_t r = 0; r < 4; ++r) rows[r] = g.a + std::min(m + r, g.M - 1) * g.lda;
  const bool second = 4 * (p + 1) < g.N;
  const int16_t* p0 = panels + p * pairs * 8;
  const int16_t* p1 = second ? p0 + pairs * 8 : p0;
  Acc acc[4][2];
  for (auto& r : acc) r[0] = r[1] = acc_zero();
  for (int64_t kp = 0; kp < pairs; ++kp) {
    const Acc b0 = load8(p0 + kp * 8), b1 = load8(p1 + kp * 8);
    for (int64_t r = 0; r < 4; ++r) {
      const Acc a = splat_pair(a_pair(rows[r], kp, g.K));
      acc[r][0] = dot_add(acc[r][0], a, b0);
      acc[r][1] = dot_add(acc[r][1], a, b1);
    }
  }
  alignas(16) int32_t lanes[4];
  for (int64_t r = 0; r < 4 && m + r < g.M; ++r)
    for (int64_t h = 0; h < (second ? 2 : 1); ++h) {
      store4(lanes, acc[r][h]);
      for (int64_t j = 0; j < 4; ++j) {
        const int64_t n = 4 * (p + h) + j;
        if (n < g.N) g.c[(m + r) * g.ldc_m + n * g.ldc_n] = lanes[j];
      }
    }
}

int32_t row_by_one(const DotGemmArgs& g, const int16_t* a, const int16_t* b) {
  Acc s = acc_zero();
  const int64_t k8 = g.K & ~int64_t(7);
  for (int64_t k = 0; k < k8; k += 8) s = dot_add(s, load8(a + k), load8(b + k));
  return lanes_sum(s) + tail_dot(a, b, k8, g.K);
}
#endif

}  // namespace

void dot_gemm_s16(const DotGemmArgs& g) {
  if constexpr (!kVector) {
    dot_gemm_s16_reference(g);
  } else {
#if defined(__wasm_simd128__) || defined(__SSE2__)
    if (g.M >= 4 && g.N >= 4) {
      // several A rows share each packed B panel: pack once, no horizontal sums
      const int64_t pairs = (g.K + 1) / 2, panels = (g.N + 3) / 4;
      const int16_t* packed = pack_pair_panels(g, pairs, panels);
      for (int64_t p = 0; p < panels; p += 2)
        for (int64_t m = 0; m < g.M; m += 4) panel_tile(g, packed, pairs, m, p);
      return;
    }
    const int64_t n4 = g.N & ~int64_t(3);
    for (int64_t m = 0; m < g.M; ++m) {
      const int16_t* a = g.a + m * g.lda;
      int32_t* c = g.c + m * g.ldc_m;
      for (int64_t n = 0; n < n4; n += 4) row_by_four(g, a, n, c + n * g.ldc_n);
      for (int64_t n = n4; n < g.N; ++n) c[n * g.ldc_n] = row_by_one(g, a, g.b + n * g.ldb);
    }
#endif
  }
}

}  // namespace pt2web
