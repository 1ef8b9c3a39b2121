// Products with a 16-bit weight read in place (kernels/gemm/half_weight_gemv)
// against the widened weight through the reference GEMM: every row count of
// the kernel (1 to 4, and 5 and 9, which take more than one group), column
// tails of the two-column tile, K tails of the 8- and 16-element steps, a
// strided weight, the bias, both 16-bit kinds, and every class of float16
// value (subnormal, the largest, infinities, NaN, signed zero), which the
// vector widening must turn into the same float32 as the scalar one.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/gemm/gemm.h"
#include "kernels/gemm/half_weight_gemv.h"
#include "kernels/wave.h"
#include "tensor/half.h"

using namespace pt2web;

namespace {

using test::pseudo_random;

uint16_t to_bits(float x, HalfKind kind) { return kind == HalfKind::BFloat16 ? BFloat16(x).bits : Half(x).bits; }

float from_bits(uint16_t bits, HalfKind kind) {
  if (kind == HalfKind::Float16) return Half::to_float(bits);
  BFloat16 b;
  b.bits = bits;
  return static_cast<float>(b);
}

void check_product(int64_t M, int64_t N, int64_t K, HalfKind kind, bool bias, int64_t pad = 0) {
  const std::vector<float> a = pseudo_random(static_cast<size_t>(M * K), 1);
  const int64_t ldw = K + pad;
  const std::vector<float> w_values = pseudo_random(static_cast<size_t>(N * ldw), 2);
  std::vector<uint16_t> w(w_values.size());
  std::vector<float> widened(w_values.size());
  for (size_t i = 0; i < w.size(); ++i) {
    w[i] = to_bits(w_values[i], kind);
    widened[i] = from_bits(w[i], kind);
  }
  const std::vector<float> b = pseudo_random(static_cast<size_t>(N), 3);
  std::vector<float> expected(static_cast<size_t>(M * N)), got(expected.size(), -7.0f);
  gemm_f32_reference(M, N, K, MatrixF32{a.data(), K, 1}, MatrixF32{widened.data(), 1, ldw}, expected.data(), N, false,
                     GemmBias{nullptr, bias ? b.data() : nullptr});
  gemm_half_weight_t_f32(M, N, K, a.data(), K, HalfWeight{w.data(), ldw, kind}, got.data(), N,
                         bias ? b.data() : nullptr);
  INFO("M=" << M << " N=" << N << " K=" << K << " kind " << static_cast<int>(kind) << " bias " << bias);
  for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(expected[i]).margin(1e-5).epsilon(1e-5));
}

}  // namespace

TEST_CASE("16-bit weight products match the widened reference", "[kernels][gemm]") {
  for (HalfKind kind : {HalfKind::BFloat16, HalfKind::Float16})
    for (int64_t M : {1, 2, 3, 4, 5, 9})
      for (int64_t N : {1, 2, 3, 9})
        for (int64_t K : {0, 1, 7, 8, 9, 15, 16, 17, 40})
          for (bool bias : {false, true}) check_product(M, N, K, kind, bias);
}

TEST_CASE("16-bit weight products read a strided weight and split across columns", "[kernels][gemm]") {
  check_product(1, 301, 64, HalfKind::BFloat16, true, 5);
  check_product(3, 77, 33, HalfKind::Float16, false, 3);
  check_product(1, 4096, 256, HalfKind::BFloat16, false);
}

TEST_CASE("every class of float16 and bfloat16 value widens as the scalar conversion does", "[kernels][gemm]") {
  // One row of ones times a weight with one column per 16-bit pattern: each
  // output is the widened weight summed once, so it must equal it exactly
  // (K = 8 and 16: the vector paths of both step widths).
  for (HalfKind kind : {HalfKind::Float16, HalfKind::BFloat16})
    for (int64_t K : {8, 16}) {
      std::vector<uint16_t> patterns;
      for (uint32_t bits = 0; bits < 0x10000u; bits += 7) patterns.push_back(static_cast<uint16_t>(bits));
      for (uint16_t special : {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7f80,
                               0xff80, 0x7fc0, 0x7f7f})
        patterns.push_back(special);
      const int64_t N = static_cast<int64_t>(patterns.size());
      std::vector<uint16_t> w(static_cast<size_t>(N * K), 0);
      for (int64_t j = 0; j < N; ++j) w[static_cast<size_t>(j * K)] = patterns[static_cast<size_t>(j)];
      std::vector<float> x(static_cast<size_t>(K), 0.0f), out(static_cast<size_t>(N));
      x[0] = 1.0f;
      gemm_half_weight_t_f32(1, N, K, x.data(), K, HalfWeight{w.data(), K, kind}, out.data(), N, nullptr);
      for (int64_t j = 0; j < N; ++j) {
        const float want = from_bits(patterns[static_cast<size_t>(j)], kind);
        INFO("kind " << static_cast<int>(kind) << " bits 0x" << std::hex << patterns[static_cast<size_t>(j)]);
        // The sum adds zeros (0 * the other weights); -0 + 0 is +0, and NaN stays NaN.
        if (std::isnan(want)) REQUIRE(std::isnan(out[static_cast<size_t>(j)]));
        else REQUIRE(out[static_cast<size_t>(j)] == (want == 0.0f ? 0.0f : want));
      }
    }
}
