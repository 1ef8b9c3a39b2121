#include "kernels/int8/dot_gemm_s16.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/int8/dot_panels.h"

#include "kernels/int8/int8_lanes.h"

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

using namespace int8_lanes;
constexpr bool kVector = kLanes;

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

// A's pair (a[2kp], a[2kp+1]) in every 32-bit lane (a zero past K), from any row.
struct AnyPair {
  int64_t K;
  Acc operator()(const int16_t* a, int64_t kp) const {
    const uint16_t lo = static_cast<uint16_t>(a[2 * kp]);
    const uint16_t hi = 2 * kp + 1 < K ? static_cast<uint16_t>(a[2 * kp + 1]) : 0;
    return splat_pair(static_cast<int32_t>(static_cast<uint32_t>(lo) | (static_cast<uint32_t>(hi) << 16)));
  }
};

// From an int16 row padded to an even length with a zero: one 32-bit load.
struct PaddedPair {
  Acc operator()(const int16_t* a, int64_t kp) const {
#if defined(__wasm_simd128__)
    return wasm_v128_load32_splat(a + 2 * kp);
#else
    int32_t pair;
    std::memcpy(&pair, a + 2 * kp, sizeof pair);
    return splat_pair(pair);
#endif
  }
};

// From an int8 row padded to an even length with a zero: a 16-bit load,
// spread to every pair of lanes and sign-extended to int16.
struct Int8Pair {
  Acc operator()(const int8_t* a, int64_t kp) const {
#if defined(__wasm_simd128__)
    return wasm_i16x8_extend_low_i8x16(wasm_v128_load16_splat(a + 2 * kp));
#else
    int16_t pair;
    std::memcpy(&pair, a + 2 * kp, sizeof pair);
    const __m128i bytes = _mm_set1_epi16(pair);
    return _mm_srai_epi16(_mm_unpacklo_epi8(bytes, bytes), 8);
#endif
  }
};

// Four A rows (m..m+3, repeating the last row past M) against panels p and
// p + 1 (dot_panels.h): eight accumulators of four outputs each, handed to
// store(m, first column, acc, rows, columns) (rows = min(4, M - m)).
template <typename T, typename Pair, typename Store>
void panel_tile(const T* a, int64_t lda, int64_t M, int64_t N, const int16_t* panels, int64_t pairs,
                int64_t m, int64_t p, Pair pair, Store store) {
  const T* rows[4];
  for (int64_t r = 0; r < 4; ++r) rows[r] = a + std::min(m + r, M - 1) * lda;
  const bool second = 4 * (p + 1) < N;
  const int16_t* p0 = panels + p * pairs * 8;
  const int16_t* p1 = second ? p0 + pairs * 8 : p0;
  Acc acc[4][2];
  for (auto& r : acc) r[0] = r[1] = acc_zero();
  for (int64_t kp = 0; kp < pairs; ++kp) {
    const Acc b0 = load8(p0 + kp * 8), b1 = load8(p1 + kp * 8);
    for (int64_t r = 0; r < 4; ++r) {
      const Acc x = pair(rows[r], kp);
      acc[r][0] = dot_add(acc[r][0], x, b0);
      acc[r][1] = dot_add(acc[r][1], x, b1);
    }
  }
  const int64_t columns = std::min<int64_t>(second ? 8 : 4, N - 4 * p);
  store(m, 4 * p, acc, std::min<int64_t>(4, M - m), columns);
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
      thread_local std::vector<int16_t> packed;
      packed.resize(static_cast<size_t>(panel_values(g.N, g.K)));
      pack_panels_from_s16_rows(g.b, g.N, g.K, g.ldb, packed.data());
      const auto store = [&g](int64_t m, int64_t n, Acc (&acc)[4][2], int64_t rows, int64_t count) {
        alignas(16) int32_t lanes[8];
        for (int64_t r = 0; r < rows; ++r) {
          store4(lanes, acc[r][0]);
          store4(lanes + 4, acc[r][1]);
          for (int64_t j = 0; j < count; ++j) g.c[(m + r) * g.ldc_m + (n + j) * g.ldc_n] = lanes[j];
        }
      };
      for (int64_t p = 0; p < panel_count(g.N); p += 2)
        for (int64_t m = 0; m < g.M; m += 4)
          panel_tile(g.a, g.lda, g.M, g.N, packed.data(), panel_pairs(g.K), m, p, AnyPair{g.K}, store);
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

void dot_gemm_packed(const PackedDotArgs& g, const RequantizedOutput& out) {
  const int64_t pairs = panel_pairs(g.K);
  const int64_t end = g.panel_end < 0 ? panel_count(g.N) : std::min(g.panel_end, panel_count(g.N));
  if constexpr (!kVector) {
    // Plain loops over the same operands.
    int32_t lanes[4];
    for (int64_t p = g.panel_first; p < end; ++p)
      for (int64_t m = 0; m < g.M; ++m) {
        const int16_t* panel = g.panels + p * pairs * 8;
        for (int64_t j = 0; j < 4; ++j) {
          int32_t sum = 0;
          for (int64_t k = 0; k < 2 * pairs; ++k) {
            const int32_t a = g.a8 ? int32_t(g.a8[m * g.lda + k]) : int32_t(g.a[m * g.lda + k]);
            sum += a * panel[(k / 2) * 8 + 2 * j + k % 2];
          }
          lanes[j] = sum;
        }
        store_requantized(out, m, 4 * p, lanes, std::min<int64_t>(4, g.N - 4 * p));
      }
  } else {
#if defined(__wasm_simd128__) || defined(__SSE2__)
    // int8 / uint8 rows of contiguous outputs are requantized in the
    // registers, with each row's parameters splat once per call; float32
    // or strided outputs go through store_requantized.
    const bool in_registers = out.kind != QuantizedOutputKind::Float32 && out.ld_n == 1;
    thread_local std::vector<LaneEpilogue> epilogues;
    if (in_registers) {
      epilogues.resize(static_cast<size_t>(g.M));
      for (int64_t m = 0; m < g.M; ++m) epilogues[m] = LaneEpilogue(*out.requant, out.channel0 + m, out.kind == QuantizedOutputKind::Int8);
    }
    // Float32 outputs of a linear layer (one row per output feature, stored
    // transposed: ld_m == 1) take whole tiles: transposed in the registers,
    // each column is four consecutive outputs of one token.
    const bool transposed_f32 = out.kind == QuantizedOutputKind::Float32 && out.ld_m == 1;
    const Requantization& r = *out.requant;
    const auto store_rows = [&](int64_t m, int64_t n, Acc (&acc)[4][2], int64_t rows, int64_t count) {
      alignas(16) int32_t lanes[8];
      for (int64_t i = 0; i < rows; ++i) {
        Acc lo = acc[i][0], hi = acc[i][1];
        if (in_registers) {
          const int64_t at = (m + i) * out.ld_m + n;
          if (out.kind == QuantizedOutputKind::Int8)
            store_requantized_lanes(lo, hi, epilogues[m + i], static_cast<int8_t*>(out.data) + at, count);
          else
            store_requantized_lanes(lo, hi, epilogues[m + i], static_cast<uint8_t*>(out.data) + at, count);
          continue;
        }
        store4(lanes, lo);
        store4(lanes + 4, hi);
        store_requantized(out, m + i, n, lanes, count);
      }
    };
    const auto store = [&](int64_t m, int64_t n, Acc (&acc)[4][2], int64_t rows, int64_t count) {
      if (!transposed_f32 || rows < 4) return store_rows(m, n, acc, rows, count);
      const int64_t channel = out.channel0 + m;
      const Floats mul = load_f(r.multiplier + channel);
      const Floats add = r.bias ? load_f(r.bias + channel) : splat_f(0.0f);
      const Floats lo = splat_f(r.lo), hi = splat_f(r.hi);
      float* o = static_cast<float*>(out.data) + m;
      for (int half = 0; half < 2; ++half) {
        Acc c[4] = {acc[0][half], acc[1][half], acc[2][half], acc[3][half]};
        transpose4(c[0], c[1], c[2], c[3]);
        for (int64_t j = 0; j < 4 && 4 * half + j < count; ++j)
          store_f(o + (n + 4 * half + j) * out.ld_n, clamp_f(mul_add(to_float(c[j]), mul, add), lo, hi));
      }
    };
    for (int64_t p = g.panel_first; p < end; p += 2) {
      // an odd range end leaves one panel for the last tile
      const int64_t n_limit = std::min(g.N, 4 * std::min(p + 2, end));
      for (int64_t m = 0; m < g.M; m += 4) {
        if (g.a8) panel_tile(g.a8, g.lda, g.M, n_limit, g.panels, pairs, m, p, Int8Pair{}, store);
        else panel_tile(g.a, g.lda, g.M, n_limit, g.panels, pairs, m, p, PaddedPair{}, store);
      }
    }
#endif
  }
}

}  // namespace pt2web
