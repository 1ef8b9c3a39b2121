// A standalone timing of pt2web's float32 GEMM and 3x3 convolution kernels
// next to a minimal reference blocking, in the same process, so a figure
// measured on a busy machine can be compared with the reference measured at
// the same moment. The reference follows the description in issue 17: A in
// 2-row panels, B in 16-column panels, KC = 256, MC = 120, a 2x16 SIMD128
// tile of eight accumulators, A broadcast with load32_splat, no edge
// handling (it runs only on sizes that are multiples of the tile and block).
//
// Build and run (README.md in this folder):
//   NODE_PATH=/usr/share/nodejs em++ -O3 -msimd128 -std=c++17 -Isrc tools/kernel_microbench/gemm_microbench.cpp \
//       src/kernels/gemm/*.cpp src/kernels/conv/*.cpp src/kernels/parallel/thread_pool.cpp \
//       -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -o /tmp/kernel_microbench.js
//   node --no-experimental-fetch /tmp/kernel_microbench.js [rounds] [gemm|conv|gemv]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <emscripten.h>

#include "kernels/conv/conv_columns.h"
#include "kernels/conv/convolution.h"
#include "kernels/gemm/gemm.h"
#include "kernels/vec4.h"

namespace {

using pt2web::simd::Vec4;
using pt2web::simd::load4;
using pt2web::simd::splat4;
using pt2web::simd::store4;

constexpr int kKC = 256, kMC = 120, kMR = 2, kNR = 16;

// C[2x16] += A panel * B panel over kc steps.
__attribute__((noinline)) void reference_tile(int kc, const float* a, const float* b, float* c, int ldc) {
  Vec4 c00 = load4(c), c01 = load4(c + 4), c02 = load4(c + 8), c03 = load4(c + 12);
  Vec4 c10 = load4(c + ldc), c11 = load4(c + ldc + 4), c12 = load4(c + ldc + 8), c13 = load4(c + ldc + 12);
  for (int k = 0; k < kc; ++k, a += kMR, b += kNR) {
    const Vec4 b0 = load4(b), b1 = load4(b + 4), b2 = load4(b + 8), b3 = load4(b + 12);
    const Vec4 a0 = splat4(a), a1 = splat4(a + 1);
    c00 += a0 * b0, c01 += a0 * b1, c02 += a0 * b2, c03 += a0 * b3;
    c10 += a1 * b0, c11 += a1 * b1, c12 += a1 * b2, c13 += a1 * b3;
  }
  store4(c, c00), store4(c + 4, c01), store4(c + 8, c02), store4(c + 12, c03);
  store4(c + ldc, c10), store4(c + ldc + 4, c11), store4(c + ldc + 8, c12), store4(c + ldc + 12, c13);
}

// C = A B, row-major, n a multiple of 240 or of the sizes below (no edges).
void reference_gemm(int n, const float* A, const float* B, float* C) {
  static std::vector<float> pa, pb;
  pa.resize(kMC * kKC);
  pb.resize(static_cast<size_t>(kKC) * n);
  std::fill(C, C + static_cast<size_t>(n) * n, 0.0f);
  for (int k0 = 0; k0 < n; k0 += kKC) {
    const int kc = std::min(kKC, n - k0);
    for (int j = 0; j < n; j += kNR)
      for (int k = 0; k < kc; ++k) std::memcpy(&pb[j * kc + k * kNR], B + (k0 + k) * n + j, sizeof(float) * kNR);
    for (int i0 = 0; i0 < n; i0 += kMC) {
      const int mc = std::min(kMC, n - i0);
      for (int i = 0; i < mc; i += kMR)
        for (int k = 0; k < kc; ++k)
          for (int r = 0; r < kMR; ++r) pa[i * kc + k * kMR + r] = A[(i0 + i + r) * n + k0 + k];
      for (int j = 0; j < n; j += kNR)
        for (int i = 0; i < mc; i += kMR) reference_tile(kc, &pa[i * kc], &pb[j * kc], C + (i0 + i) * n + j, n);
    }
  }
}

// The CPU time this process has used, in seconds (Node's process.cpuUsage):
// on a machine shared with other work, time spent waiting for a core is not
// counted, so figures stay comparable while the load changes.
EM_JS(double, cpu_seconds, (), {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e-6;
});

// Reads n floats once (the memory-bandwidth yardstick for products that
// stream a weight once per call).
__attribute__((noinline)) float stream_sum(const float* x, int64_t n) {
  Vec4 s0{}, s1{}, s2{}, s3{};
  for (int64_t i = 0; i + 16 <= n; i += 16)
    s0 += load4(x + i), s1 += load4(x + i + 4), s2 += load4(x + i + 8), s3 += load4(x + i + 12);
  return pt2web::simd::sum4((s0 + s1) + (s2 + s3));
}
volatile float sink;

double seconds_per_call(const std::function<void()>& f, double min_seconds) {
  f();  // warm-up (buffers, tier-up)
  int calls = 0;
  const double start = cpu_seconds();
  double elapsed = 0;
  do {
    f();
    ++calls;
    elapsed = cpu_seconds() - start;
  } while (elapsed < min_seconds);
  return elapsed / calls;
}

std::vector<float> random_values(size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / 16777216.0f - 0.5f;
  }
  return v;
}

float max_difference(const std::vector<float>& x, const std::vector<float>& y) {
  float d = 0;
  for (size_t i = 0; i < x.size(); ++i) d = std::max(d, std::fabs(x[i] - y[i]));
  return d;
}

// Best of `rounds` interleaved measurements, as GB/s of the weight read.
void compare_stream(const char* name, double bytes, const std::function<void()>& ours, const float* weight,
                    int rounds) {
  double best_ours = 1e30, best_ref = 1e30;
  for (int r = 0; r < rounds; ++r) {
    best_ours = std::min(best_ours, seconds_per_call(ours, 0.2));
    best_ref = std::min(best_ref, seconds_per_call([&] { sink = stream_sum(weight, bytes / 4); }, 0.2));
  }
  std::printf("%-24s pt2web %6.1f GB/s      read once %6.1f GB/s      ratio %.3f  (%.1f us)\n", name,
              bytes / best_ours * 1e-9, bytes / best_ref * 1e-9, best_ref / best_ours, best_ours * 1e6);
}

void compare(const char* name, double flops, const std::function<void()>& ours, const std::function<void()>& ref,
             int rounds) {
  double best_ours = 1e30, best_ref = 1e30;
  for (int r = 0; r < rounds; ++r) {
    best_ours = std::min(best_ours, seconds_per_call(ours, 0.3));
    if (ref) best_ref = std::min(best_ref, seconds_per_call(ref, 0.3));
  }
  if (ref)
    std::printf("%-24s pt2web %6.1f GFLOP/s   reference %6.1f GFLOP/s   ratio %.3f\n", name, flops / best_ours * 1e-9,
                flops / best_ref * 1e-9, best_ref / best_ours);
  else
    std::printf("%-24s pt2web %6.1f GFLOP/s\n", name, flops / best_ours * 1e-9);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
  const std::string only = argc > 2 ? argv[2] : "";
  auto wanted = [&](const char* section) { return only.empty() || only == section; };
  for (int n : {256, 512, 1024}) {
    if (!wanted("gemm")) break;
    const auto A = random_values(static_cast<size_t>(n) * n, 1), B = random_values(static_cast<size_t>(n) * n, 2);
    std::vector<float> C(static_cast<size_t>(n) * n), R(C.size());
    auto ours = [&] { pt2web::gemm_f32(n, n, n, A.data(), n, B.data(), n, C.data(), n, false); };
    auto ref = [&] { reference_gemm(n, A.data(), B.data(), R.data()); };
    ours(), ref();
    const float diff = max_difference(C, R);
    if (diff > 1e-3f) std::printf("gemm %d: results differ by %g\n", n, diff);
    char name[32];
    std::snprintf(name, sizeof name, "gemm %dx%dx%d", n, n, n);
    compare(name, 2.0 * n * n * n, ours, ref, rounds);
  }
  if (wanted("conv")) {
    // 3x3 convolution 64 -> 64 on 56x56, padding 1: reference = the same
    // product on an explicit im2col matrix with the reference GEMM's loops
    // is not comparable (K = 576), so the GEMM ratio is the yardstick.
    pt2web::ConvShape s;
    s.batch = 1, s.in_channels = 64, s.out_channels = 64;
    s.input = {1, 56, 56}, s.output = {1, 56, 56}, s.kernel = {1, 3, 3}, s.pad = {0, 1, 1};
    const auto x = random_values(64 * 56 * 56, 3), w = random_values(64 * 64 * 9, 4);
    std::vector<float> y(64 * 56 * 56);
    compare("conv3x3 64->64 56x56", 2.0 * 64 * 64 * 9 * 56 * 56,
            [&] { pt2web::conv_forward<float>(s, x.data(), w.data(), nullptr, y.data()); }, nullptr, rounds);
    // Its column packing alone, in the blocks the product asks for (one
    // row block: 128 columns by 256 steps).
    pt2web::ConvColumnsF32 columns;
    columns.images = x.data(), columns.image_stride = 64 * 56 * 56;
    columns.shape = pt2web::Im2colShape{64, 56, 56, 56, 56, 3, 3, 1, 1, 1, 1, 1, 1};
    const pt2web::PanelSourceF32 source = columns.source();
    std::vector<float> scratch(256 * 128);
    const double pack_seconds = seconds_per_call(
        [&] {
          for (int64_t j0 = 0; j0 < columns.columns(); j0 += 128)
            for (int64_t k0 = 0; k0 < columns.rows(); k0 += 256)
              source.panels(source.context, k0, std::min<int64_t>(256, columns.rows() - k0), j0,
                            std::min<int64_t>(128, columns.columns() - j0), scratch.data());
        },
        0.3);
    std::printf("%-24s packing alone %.2f ms\n", "conv3x3 64->64 56x56", pack_seconds * 1e3);
    // The floor of that packing: the same blocks filled by plain 16-float
    // copies from the image (rows of a padded 58-wide image, no checks).
    std::vector<float> padded_image(64 * 58 * 58 + 64);
    const double copy_seconds = seconds_per_call(
        [&] {
          for (int64_t j0 = 0; j0 < 3136; j0 += 128)
            for (int64_t k0 = 0; k0 < 576; k0 += 256) {
              const int64_t kc = std::min<int64_t>(256, 576 - k0);
              for (int64_t p = 0; p < 128; p += 16)
                for (int64_t k = 0; k < kc; ++k) {
                  const int64_t row = k0 + k, ch = row / 9, kh = row % 9 / 3, kw = row % 3;
                  const float* from = padded_image.data() + ch * 58 * 58 + kh * 58 + kw + (j0 + p) % 3200;
                  float* to = scratch.data() + p * kc + k * 16;
                  store4(to, load4(from)), store4(to + 4, load4(from + 4));
                  store4(to + 8, load4(from + 8)), store4(to + 12, load4(from + 12));
                }
            }
        },
        0.3);
    std::printf("%-24s plain copies alone %.2f ms\n", "conv3x3 64->64 56x56", copy_seconds * 1e3);
  }
  // Batch-1 products: y[1, N] = x[1, K] W, W either [K, N] row-major (mm)
  // or a linear weight [N, K] read transposed.
  struct Shape { const char* name; int64_t K, N; bool linear; };
  for (const Shape& p : {Shape{"gemv 1x1024x1024 (mm)", 1024, 1024, false}, Shape{"gemv 1x1024x1000 (mm)", 1024, 1000, false}, Shape{"linear 1x1024x1000", 1024, 1000, true},
                         Shape{"linear 1x256x4096", 256, 4096, true}, Shape{"linear 1x256x768", 256, 768, true},
                         Shape{"linear 1x1024x256", 1024, 256, true}, Shape{"linear 1x64x256", 64, 256, true}}) {
    if (!wanted("gemv")) break;
    const auto x = random_values(p.K, 5), w = random_values(p.K * p.N, 6);
    std::vector<float> y(p.N);
    const pt2web::MatrixF32 W = p.linear ? pt2web::MatrixF32{w.data(), 1, p.K} : pt2web::MatrixF32{w.data(), p.N, 1};
    compare_stream(p.name, 4.0 * p.K * p.N,
                   [&] { pt2web::gemm_f32(1, p.N, p.K, pt2web::MatrixF32{x.data(), p.K, 1}, W, y.data(), p.N, false); },
                   w.data(), rounds);
    if (p.linear) {
      // The same product with the weight packed ahead (gemm_packed_weight_t_f32).
      std::vector<float> packed(static_cast<size_t>(pt2web::packed_weight_floats(p.N, p.K))), packed_y(p.N);
      pt2web::pack_weight_f32(p.N, p.K, pt2web::MatrixF32{w.data(), p.K, 1}, packed.data());
      auto packed_product = [&] {
        pt2web::gemm_packed_weight_t_f32(1, p.N, p.K, pt2web::MatrixF32{x.data(), p.K, 1}, packed.data(),
                                         packed_y.data(), p.N, nullptr);
      };
      packed_product();
      y.assign(p.N, 0.0f);
      pt2web::gemm_f32(1, p.N, p.K, pt2web::MatrixF32{x.data(), p.K, 1}, W, y.data(), p.N, false);
      if (max_difference(y, packed_y) > 1e-3f) std::printf("packed product differs\n");
      compare_stream("  packed ahead", 4.0 * p.K * p.N, packed_product, packed.data(), rounds);
    }
  }
  return 0;
}
