// The fast GEMM against the reference loop: every tail of the 2x16 tile and
// of the K/M/N blocks, products of up to four rows and of one column (the
// unpacked paths, every tile tail in every layout),
// transposed and strided operands, accumulation into C, biases the product
// starts from, narrow products computed transposed, products with a weight
// packed ahead, and empty sizes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/gemm/gemm.h"
#include "kernels/wave.h"

using namespace pt2web;

namespace {

using test::pseudo_random;

enum class Layout { RowMajor, Transposed, Strided };

// An M x K matrix stored in `storage` in the given layout.
MatrixF32 make_matrix(int64_t rows, int64_t cols, Layout layout, std::vector<float>& storage, uint32_t seed) {
  switch (layout) {
    case Layout::RowMajor:
      storage = pseudo_random(static_cast<size_t>(rows * cols), seed);
      return {storage.data(), cols, 1};
    case Layout::Transposed:
      storage = pseudo_random(static_cast<size_t>(rows * cols), seed);
      return {storage.data(), 1, rows};
    case Layout::Strided:  // every other column of a row-major [rows, 2*cols+1]
      storage = pseudo_random(static_cast<size_t>(rows * (2 * cols + 1)), seed);
      return {storage.data() + 1, 2 * cols + 1, 2};
  }
  return {};
}

void check_against_reference(int64_t M, int64_t N, int64_t K, Layout la, Layout lb, bool accumulate,
                             bool row_bias = false, bool col_bias = false) {
  std::vector<float> a_store, b_store;
  MatrixF32 A = make_matrix(M, K, la, a_store, 1);
  MatrixF32 B = make_matrix(K, N, lb, b_store, 2);
  const int64_t ldc = N + 3;
  std::vector<float> expected = pseudo_random(static_cast<size_t>(std::max<int64_t>(M, 1) * ldc), 3);
  std::vector<float> got = expected;
  std::vector<float> rows = pseudo_random(static_cast<size_t>(M), 4), cols = pseudo_random(static_cast<size_t>(N), 5);
  GemmBias bias{row_bias ? rows.data() : nullptr, col_bias ? cols.data() : nullptr};
  gemm_f32_reference(M, N, K, A, B, expected.data(), ldc, accumulate, bias);
  gemm_f32(M, N, K, A, B, got.data(), ldc, accumulate, bias);
  INFO("M=" << M << " N=" << N << " K=" << K << " layouts " << static_cast<int>(la) << "," << static_cast<int>(lb)
            << " accumulate=" << accumulate << " bias " << row_bias << col_bias);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      const float want = expected[i * ldc + j], have = got[i * ldc + j];
      // Columns past N are padding that must stay untouched.
      if (j >= N) REQUIRE(have == want);
      else REQUIRE(std::fabs(have - want) <= 1e-5f * (1.0f + static_cast<float>(K)));
    }
}

}  // namespace

TEST_CASE("gemm matches the reference on every tile tail", "[kernels][gemm]") {
  for (int64_t M : {1, 2, 3, 4, 5, 7, 8, 9})
    for (int64_t N : {1, 2, 5, 8, 9, 15, 16, 17})
      for (int64_t K : {1, 3, 8, 13}) check_against_reference(M, N, K, Layout::RowMajor, Layout::RowMajor, false);
}

TEST_CASE("gemm with at most four rows (unpacked) on every tile tail and layout", "[kernels][gemm]") {
  // Tiles are up to 32 columns (rows of B contiguous) or 8 columns (columns
  // contiguous), with 4-column and single-column tails, and K tails of 1..3.
  const Layout layouts[] = {Layout::RowMajor, Layout::Transposed, Layout::Strided};
  for (int64_t M : {1, 2, 3, 4})
    for (int64_t N : {1, 3, 4, 7, 8, 9, 31, 32, 37, 70})
      for (int64_t K : {1, 4, 7, 33})
        for (Layout la : layouts)
          for (Layout lb : layouts) check_against_reference(M, N, K, la, lb, (N + K) % 2 == 1);
  for (bool row_bias : {false, true})
    for (bool col_bias : {false, true})
      for (int64_t M : {1, 3, 4}) {
        check_against_reference(M, 45, 66, Layout::RowMajor, Layout::Transposed, false, row_bias, col_bias);
        check_against_reference(M, 45, 66, Layout::RowMajor, Layout::RowMajor, false, row_bias, col_bias);
      }
}

TEST_CASE("gemm matches the reference across block edges", "[kernels][gemm]") {
  check_against_reference(130, 33, 300, Layout::RowMajor, Layout::RowMajor, false);
  check_against_reference(6, 1030, 257, Layout::RowMajor, Layout::RowMajor, true);
  check_against_reference(129, 1025, 513, Layout::RowMajor, Layout::Transposed, false);
  // All rows in one block: A packed once for all K blocks, B in narrow blocks.
  check_against_reference(50, 300, 520, Layout::RowMajor, Layout::Transposed, false, true, true);
  check_against_reference(120, 2100, 72, Layout::Strided, Layout::RowMajor, true);
}

TEST_CASE("gemm reads transposed and strided operands", "[kernels][gemm]") {
  const Layout layouts[] = {Layout::RowMajor, Layout::Transposed, Layout::Strided};
  for (Layout la : layouts)
    for (Layout lb : layouts)
      for (bool accumulate : {false, true}) {
        check_against_reference(7, 11, 19, la, lb, accumulate);
        check_against_reference(1, 13, 21, la, lb, accumulate);   // one row: GEMV
        check_against_reference(13, 1, 21, la, lb, accumulate);   // one column: GEMV transposed
        check_against_reference(1, 1, 37, la, lb, accumulate);
      }
}

TEST_CASE("gemm with an empty dimension", "[kernels][gemm]") {
  // K == 0: C = 0 (or unchanged when accumulating); M or N == 0: nothing written.
  check_against_reference(3, 5, 0, Layout::RowMajor, Layout::RowMajor, false);
  check_against_reference(3, 5, 0, Layout::RowMajor, Layout::RowMajor, true);
  check_against_reference(0, 5, 4, Layout::RowMajor, Layout::RowMajor, false);
  check_against_reference(3, 0, 4, Layout::RowMajor, Layout::RowMajor, false);
}

TEST_CASE("gemm starts from row and column biases", "[kernels][gemm]") {
  for (bool row_bias : {false, true})
    for (bool col_bias : {false, true}) {
      check_against_reference(9, 17, 300, Layout::RowMajor, Layout::RowMajor, false, row_bias, col_bias);
      check_against_reference(1, 13, 21, Layout::RowMajor, Layout::Transposed, false, row_bias, col_bias);
      check_against_reference(13, 1, 21, Layout::RowMajor, Layout::RowMajor, false, row_bias, col_bias);
      check_against_reference(5, 6, 0, Layout::RowMajor, Layout::RowMajor, false, row_bias, col_bias);
    }
}

TEST_CASE("narrow products computed transposed match the reference", "[kernels][gemm]") {
  // N = 49 and 196: pointwise convolutions on 7x7 and 14x14 planes; N = 33
  // with an odd row count; the 2-row tiles then take the tail.
  const Layout layouts[] = {Layout::RowMajor, Layout::Transposed, Layout::Strided};
  for (Layout la : layouts)
    for (Layout lb : layouts) check_against_reference(160, 49, 96, la, lb, false, true, false);
  check_against_reference(960, 49, 160, Layout::RowMajor, Layout::RowMajor, false, true, true);
  check_against_reference(131, 33, 300, Layout::RowMajor, Layout::RowMajor, true);
  check_against_reference(576, 196, 96, Layout::RowMajor, Layout::RowMajor, false, true, false);
}

TEST_CASE("products with a weight packed ahead match the reference", "[kernels][gemm]") {
  struct Shape { int64_t M, N, K; };
  // Narrow and wide, panel and K-block tails (K = 300 spans two blocks), one column, K = 0.
  for (Shape s : {Shape{960, 49, 160}, Shape{33, 70, 300}, Shape{5, 3, 17}, Shape{130, 1, 520}, Shape{17, 600, 40},
                  Shape{4, 6, 0}})
    for (bool with_bias : {false, true})
      for (Layout lw : {Layout::RowMajor, Layout::Transposed}) {
        std::vector<float> w_store, b_store;
        MatrixF32 W = make_matrix(s.M, s.K, lw, w_store, 11);
        MatrixF32 B = make_matrix(s.K, s.N, Layout::RowMajor, b_store, 12);
        std::vector<float> bias = pseudo_random(static_cast<size_t>(s.M), 13);
        std::vector<float> packed(static_cast<size_t>(packed_weight_floats(s.M, s.K)));
        pack_weight_f32(s.M, s.K, W, packed.data());
        const int64_t ldc = s.N + 2;
        std::vector<float> expected(static_cast<size_t>(s.M * ldc), 7.0f), got = expected;
        GemmBias rows{with_bias ? bias.data() : nullptr, nullptr};
        gemm_f32_reference(s.M, s.N, s.K, W, B, expected.data(), ldc, false, rows);
        gemm_packed_weight_f32(s.M, s.N, s.K, packed.data(), B, got.data(), ldc, rows.rows);
        INFO("M=" << s.M << " N=" << s.N << " K=" << s.K << " bias " << with_bias);
        for (int64_t i = 0; i < s.M; ++i)
          for (int64_t j = 0; j < ldc; ++j) {
            const float want = expected[i * ldc + j], have = got[i * ldc + j];
            if (j >= s.N) REQUIRE(have == want);
            else REQUIRE(std::fabs(have - want) <= 1e-5f * (1.0f + static_cast<float>(s.K)));
          }
      }
}

TEST_CASE("products by the transpose of a weight packed ahead match the reference", "[kernels][gemm]") {
  // C = A W^T, W [N, K]: one and two rows at a time up to eight (the
  // streamed panels), nine and more (the blocked path); panel tails
  // (N = 1, 15, 33; 16 exact), K-block tails (255, 257, 520), K = 0; A row-major
  // or strided.
  for (int64_t M : {1, 2, 3, 8, 9, 50})
    for (int64_t N : {1, 15, 16, 33})
      for (int64_t K : {0, 1, 7, 255, 257, 520})
        for (Layout la : {Layout::RowMajor, Layout::Strided})
          for (bool with_bias : {false, true}) {
            std::vector<float> a_store, w_store;
            MatrixF32 A = make_matrix(M, K, la, a_store, 21);
            MatrixF32 W = make_matrix(N, K, Layout::RowMajor, w_store, 22);
            std::vector<float> bias = pseudo_random(static_cast<size_t>(N), 23);
            std::vector<float> packed(static_cast<size_t>(packed_weight_floats(N, K)));
            pack_weight_f32(N, K, W, packed.data());
            const int64_t ldc = N + 2;
            std::vector<float> expected(static_cast<size_t>(M * ldc), 7.0f), got = expected;
            const float* cols = with_bias ? bias.data() : nullptr;
            gemm_f32_reference(M, N, K, A, W.transposed(), expected.data(), ldc, false, GemmBias{nullptr, cols});
            gemm_packed_weight_t_f32(M, N, K, A, packed.data(), got.data(), ldc, cols);
            INFO("M=" << M << " N=" << N << " K=" << K << " layout " << static_cast<int>(la) << " bias " << with_bias);
            for (int64_t i = 0; i < M; ++i)
              for (int64_t j = 0; j < ldc; ++j) {
                const float want = expected[i * ldc + j], have = got[i * ldc + j];
                if (j >= N) REQUIRE(have == want);
                else REQUIRE(std::fabs(have - want) <= 1e-5f * (1.0f + static_cast<float>(K)));
              }
          }
}
