// The packed int8 product (dot_gemm_packed: int16 or int8 weight rows padded
// to an even length, B packed by dot_panels.h, tiles requantized into the output)
// against the plain-loop reference dot_gemm_s16_reference followed by the
// scalar requantization, on sizes around every tile, panel and pair tail,
// for each packer (int8 rows, int8 columns, int16 rows) and for ranges of
// panels (how threads split the work); the fused residual add against the
// three float operators it replaces.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <random>
#include <vector>

#include "kernels/int8/dot_gemm_s16.h"
#include "kernels/int8/dot_panels.h"
#include "kernels/int8/quantized_add.h"
#include "kernels/int8/widen.h"

using namespace pt2web;

namespace {

enum class Source { Rows, Columns, S16Rows };

struct Problem {
  int64_t M, N, K;
  std::vector<int8_t> w, x;  // w [M, K]; x [N, K] (Rows) or [K, N] (Columns)
  int32_t x_zero = 3;
  std::vector<int32_t> w_zero;
};

Problem random_problem(std::mt19937& rng, int64_t M, int64_t N, int64_t K) {
  std::uniform_int_distribution<int> value(-128, 127), zero(-128, 127);
  Problem p{M, N, K, std::vector<int8_t>(M * K), std::vector<int8_t>(N * K), zero(rng) / 2, {}};
  for (auto& v : p.w) v = static_cast<int8_t>(value(rng));
  for (auto& v : p.x) v = static_cast<int8_t>(value(rng));
  for (int64_t m = 0; m < M; ++m) p.w_zero.push_back(m % 3 == 0 ? -128 : zero(rng));
  return p;
}

// The widened operands as plain rows, and the reference sums C[m][n].
std::vector<int32_t> reference_sums(const Problem& p, Source source) {
  std::vector<int16_t> a(p.M * p.K), b(p.N * p.K);
  widen_rows(p.w.data(), p.M, p.K, p.K, p.w_zero.data(), true, a.data());
  for (int64_t n = 0; n < p.N; ++n)
    for (int64_t k = 0; k < p.K; ++k)
      b[n * p.K + k] = static_cast<int16_t>(int32_t(source == Source::Columns ? p.x[k * p.N + n] : p.x[n * p.K + k]) -
                                            p.x_zero);
  std::vector<int32_t> c(p.M * p.N);
  DotGemmArgs g;
  g.M = p.M;
  g.N = p.N;
  g.K = p.K;
  g.a = a.data();
  g.lda = p.K;
  g.b = b.data();
  g.ldb = p.K;
  g.c = c.data();
  g.ldc_m = p.N;
  dot_gemm_s16_reference(g);
  return c;
}

std::vector<int16_t> packed_b(const Problem& p, Source source) {
  std::vector<int16_t> panels(panel_values(p.N, p.K) + 1, 777);
  if (source == Source::Rows) pack_panels_from_rows(p.x.data(), p.N, p.K, p.K, p.x_zero, panels.data());
  if (source == Source::Columns) pack_panels_from_columns(p.x.data(), p.N, p.K, p.N, p.x_zero, panels.data());
  if (source == Source::S16Rows) {
    std::vector<int16_t> rows(p.N * p.K);
    const int32_t zero[] = {p.x_zero};
    widen_rows(p.x.data(), p.N, p.K, p.K, zero, false, rows.data());
    pack_panels_from_s16_rows(rows.data(), p.N, p.K, p.K, panels.data());
  }
  CHECK(panels.back() == 777);  // nothing written past panel_values
  return panels;
}

// dot_gemm_packed over [first, end) panels of the problem into `out`.
template <typename T>
void run_packed(const Problem& p, const std::vector<int16_t>& panels, const Requantization& r,
                QuantizedOutputKind kind, std::vector<T>& out, int64_t first, int64_t end, bool int8_rows = false) {
  const int64_t ld = p.K + (p.K & 1);
  std::vector<int16_t> a(p.M * ld + 1, 999);
  widen_rows(p.w.data(), p.M, p.K, p.K, p.w_zero.data(), true, a.data(), ld);
  std::vector<int8_t> a8(p.M * ld + 1, 99);  // int8 rows (zero points 0), zero-padded to ld
  for (int64_t m = 0; m < p.M; ++m)
    for (int64_t k = 0; k < ld; ++k) a8[m * ld + k] = k < p.K ? p.w[m * p.K + k] : int8_t(0);
  PackedDotArgs g;
  g.M = p.M;
  g.N = p.N;
  g.K = p.K;
  g.a = a.data();
  if (int8_rows) g.a8 = a8.data();
  g.lda = ld;
  g.panels = panels.data();
  g.panel_first = first;
  g.panel_end = end;
  RequantizedOutput o;
  o.requant = &r;
  o.kind = kind;
  o.data = out.data();
  o.ld_m = 1;  // transposed output, as a linear layer writes it
  o.ld_n = p.M;
  dot_gemm_packed(g, o);
}

// Per-channel multipliers and biases of M outputs (owned by the caller's
// vectors) and a Requantization reading them, clamped to [lo, hi].
Requantization random_requantization(std::mt19937& rng, int64_t M, float lo, float hi, std::vector<float>& multiplier,
                                     std::vector<float>& bias) {
  std::uniform_real_distribution<float> scale(1e-4f, 3e-3f), shift(-2.0f, 2.0f);
  multiplier.resize(M);
  bias.resize(M);
  for (auto& v : multiplier) v = scale(rng);
  for (auto& v : bias) v = shift(rng);
  Requantization r;
  r.multiplier = multiplier.data();
  r.bias = bias.data();
  r.lo = lo;
  r.hi = hi;
  return r;
}

}  // namespace

TEST_CASE("dot_gemm_packed equals the reference sums for every packer and tail size", "[kernels][int8]") {
  std::mt19937 rng(5);
  const std::vector<float> ones(40, 1.0f);
  Requantization identity;
  identity.multiplier = ones.data();  // float32 output of the exact sums (|sum| < 2^24)
  for (bool int8_rows : {false, true})
  for (Source source : {Source::Rows, Source::Columns, Source::S16Rows})
    for (int64_t M : {1, 3, 4, 5, 9})
      for (int64_t N : {1, 3, 4, 5, 8, 9, 12, 13, 17})
        for (int64_t K : {1, 2, 3, 7, 8, 9, 16, 33}) {
          Problem p = random_problem(rng, M, N, K);
          if (int8_rows) p.w_zero.assign(M, 0);  // int8 rows are read as they are
          const std::vector<int32_t> want = reference_sums(p, source);
          const std::vector<int16_t> panels = packed_b(p, source);
          std::vector<float> got(M * N + 1, -1.0f);
          run_packed(p, panels, identity, QuantizedOutputKind::Float32, got, 0, -1, int8_rows);
          INFO("int8 rows " << int8_rows << " source " << int(source) << " M " << M << " N " << N << " K " << K);
          for (int64_t m = 0; m < M; ++m)
            for (int64_t n = 0; n < N; ++n) REQUIRE(got[n * M + m] == static_cast<float>(want[m * N + n]));
          CHECK(got.back() == -1.0f);
          // split into panel ranges of every length: the same values
          const int64_t panels_n = panel_count(N);
          for (int64_t step = 1; step < panels_n; ++step) {
            std::vector<float> parts(M * N + 1, -1.0f);
            for (int64_t first = 0; first < panels_n; first += step)
              run_packed(p, panels, identity, QuantizedOutputKind::Float32, parts, first, first + step, int8_rows);
            CHECK(parts == got);
          }
        }
}

TEST_CASE("dot_gemm_packed requantizes each tile as requantize_s8 does", "[kernels][int8]") {
  std::mt19937 rng(9);
  for (int64_t N : {5, 16, 19})
    for (int64_t K : {9, 24, 75}) {
      const int64_t M = 6;
      const Problem p = random_problem(rng, M, N, K);
      std::vector<float> multiplier, bias;
      Requantization r = random_requantization(rng, M, 0.0f, 6.0f, multiplier, bias);
      r.quantize = true;
      r.inv_out_scale = 1.0f / 0.03f;
      r.out_zero_point = -100.0f;
      const std::vector<int32_t> sums = reference_sums(p, Source::Columns);
      std::vector<int8_t> want(M * N), got(M * N + 1, 55);
      for (int64_t m = 0; m < M; ++m) requantize_s8(sums.data() + m * N, N, m, r, want.data() + m, M);
      run_packed(p, packed_b(p, Source::Columns), r, QuantizedOutputKind::Int8, got, 0, -1);
      CHECK(got.back() == 55);
      got.pop_back();
      INFO("N " << N << " K " << K);
      CHECK(got == want);
    }
}

TEST_CASE("dot_gemm_packed's transposed float32 tiles add the bias and clamp as requantize_f32", "[kernels][int8]") {
  std::mt19937 rng(17);
  for (int64_t M : {4, 6, 8, 11})
    for (int64_t N : {3, 8, 13}) {
      const int64_t K = 19;
      const Problem p = random_problem(rng, M, N, K);
      std::vector<float> multiplier, bias;
      const Requantization r = random_requantization(rng, M, -0.5f, 1.5f, multiplier, bias);
      const std::vector<int32_t> sums = reference_sums(p, Source::Rows);
      std::vector<float> want(M * N), got(M * N + 1, 55.0f);
      for (int64_t m = 0; m < M; ++m) requantize_f32(sums.data() + m * N, N, m, r, want.data() + m, M);
      run_packed(p, packed_b(p, Source::Rows), r, QuantizedOutputKind::Float32, got, 0, -1);
      CHECK(got.back() == 55.0f);
      got.pop_back();
      INFO("M " << M << " N " << N);
      CHECK(got == want);
    }
}

TEST_CASE("pack_panels_from_patches equals im2col_s16 rows packed", "[kernels][int8]") {
  std::mt19937 rng(19);
  std::uniform_int_distribution<int> value(-128, 127);
  for (int64_t channels : {1, 3})
    for (int64_t size : {4, 7, 10})
      for (int64_t kernel : {1, 2, 3})
        for (int64_t stride : {1, 2})
          for (int64_t pad : {0, 1})
            for (int64_t dilation : {1, 2}) {
              ConvGeometry g;
              g.channels = channels;
              g.height = size;
              g.width = size + 1;
              g.kernel_h = g.kernel_w = kernel;
              g.stride_h = g.stride_w = stride;
              g.pad_h = g.pad_w = pad;
              g.dilation_h = g.dilation_w = dilation;
              const int64_t span_h = size + 2 * pad - dilation * (kernel - 1) - 1;
              const int64_t span_w = size + 1 + 2 * pad - dilation * (kernel - 1) - 1;
              if (span_h < 0 || span_w < 0) continue;
              g.out_h = span_h / stride + 1;
              g.out_w = span_w / stride + 1;
              const int64_t N = g.out_h * g.out_w, K = channels * kernel * kernel;
              std::vector<int8_t> image(channels * g.height * g.width);
              for (auto& v : image) v = static_cast<int8_t>(value(rng));
              std::vector<int16_t> rows(N * K), want(panel_values(N, K)), got(panel_values(N, K) + 1, 4321);
              im2col_s16(image.data(), g, -7, rows.data());
              pack_panels_from_s16_rows(rows.data(), N, K, K, want.data());
              pack_panels_from_patches(image.data(), g, -7, got.data());
              CHECK(got.back() == 4321);
              got.pop_back();
              INFO("channels " << channels << " size " << size << " kernel " << kernel << " stride " << stride);
              REQUIRE(got == want);
            }
}

TEST_CASE("quantized_add / quantized_mul equal dequantize, add or mul, clamp, quantize in float32",
          "[kernels][int8]") {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> value(-128, 127);
  QuantizedAddParams p;
  p.a_scale = 0.0173f;
  p.a_zero_point = -7;
  p.b_scale = 0.0291f;
  p.b_zero_point = 12;
  const double out_scale = 0.0337;
  p.inv_out_scale = static_cast<float>(1.0 / out_scale);
  p.out_zero_point = -3;
  const float inf = std::numeric_limits<float>::infinity();
  // no clamp; relu; hardtanh(-0.5, 1.25) (the clamp applies to the float sum, before quantizing)
  for (bool multiply : {false, true}) {
    for (auto [lo, hi] : {std::pair<float, float>{-inf, inf}, {0.0f, inf}, {-0.5f, 1.25f}}) {
      p.lo = lo;
      p.hi = hi;
      for (int64_t n : {0, 1, 7, 16, 33, 1000}) {
        std::vector<int8_t> a(n), b(n), got(n + 1, 42);
        for (auto& v : a) v = static_cast<int8_t>(value(rng));
        for (auto& v : b) v = static_cast<int8_t>(value(rng));
        if (n > 2) a[0] = b[0] = 127, a[1] = b[1] = -128;  // saturating both ways
        if (multiply) quantized_mul(a.data(), b.data(), n, p, got.data());
        else quantized_add(a.data(), b.data(), n, p, got.data());
        CHECK(got.back() == 42);
        for (int64_t i = 0; i < n; ++i) {
          // the operators of torch's reference graph, one at a time
          const float x = (static_cast<float>(a[i]) - p.a_zero_point) * p.a_scale;
          const float y = (static_cast<float>(b[i]) - p.b_zero_point) * p.b_scale;
          const float sum = std::min(hi, std::max(lo, multiply ? x * y : x + y));
          float q = std::nearbyint(sum * p.inv_out_scale) + p.out_zero_point;
          q = std::min(127.0f, std::max(-128.0f, q));
          INFO("multiply " << multiply << " n " << n << " i " << i << " clamp " << lo << " " << hi);
          REQUIRE(got[i] == static_cast<int8_t>(q));
        }
      }
    }
  }
}

TEST_CASE("requantize writes the same values in blocks of four as one at a time", "[kernels][int8]") {
  // (wasm: contiguous blocks of four take the SIMD128 epilogue, single values the scalar one)
  std::vector<int32_t> acc;
  for (int32_t v : {-2000000, -70000, -1234, -1, 0, 1, 7, 555, 4096, 70001, 2000000}) acc.push_back(v);
  while (acc.size() % 4 != 3) acc.push_back(static_cast<int32_t>(acc.size() * 7919 % 20000) - 10000);
  const float nan = std::nanf("");
  for (float bias : {0.0f, 0.37f, -2.5f, nan}) {
    const float multiplier[] = {0.0013f};
    Requantization r;
    r.multiplier = multiplier;
    r.bias = &bias;
    r.lo = -3.0f;
    r.hi = 6.0f;
    r.quantize = true;
    r.inv_out_scale = 1.0f / 0.021f;
    for (float zero_point : {-128.0f, -5.0f, 0.0f, 127.0f}) {
      r.out_zero_point = zero_point;
      std::vector<int8_t> block(acc.size()), single(acc.size());
      requantize_s8(acc.data(), static_cast<int64_t>(acc.size()), 0, r, block.data(), 1);
      for (size_t i = 0; i < acc.size(); ++i) requantize_s8(&acc[i], 1, 0, r, &single[i], 1);
      INFO("bias " << bias << " zero point " << zero_point);
      CHECK(block == single);
      r.qmin = 0.0f;
      r.qmax = 255.0f;
      std::vector<uint8_t> ublock(acc.size()), usingle(acc.size());
      requantize_u8(acc.data(), static_cast<int64_t>(acc.size()), 0, r, ublock.data(), 1);
      for (size_t i = 0; i < acc.size(); ++i) requantize_u8(&acc[i], 1, 0, r, &usingle[i], 1);
      CHECK(ublock == usingle);
      r.qmin = -128.0f;
      r.qmax = 127.0f;
    }
  }
}
