// The float32 layer-norm row kernel against double loops: row lengths
// around the 4- and 8-lane blocks, with and without weight and bias, rows
// with a large common offset (the two-pass variance keeps them accurate),
// constant rows (variance 0) and the mean/rstd outputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "kernels/norm/layer_norm_rows.h"

using namespace pt2web;

namespace {

void check(int64_t rows, int64_t n, bool affine, float offset) {
  std::vector<float> x(static_cast<size_t>(rows * n)), w(static_cast<size_t>(n)), b(w.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = offset + std::sin(static_cast<float>(i) * 0.77f) * 3.0f;
  for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = offset;  // row 0 is constant
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.5f + std::cos(static_cast<float>(i)), b[i] = std::sin(i * 1.7f);
  const float* wp = affine ? w.data() : nullptr;
  const float* bp = affine ? b.data() : nullptr;
  std::vector<float> want(x.size()), got(x.size(), 99.0f), want_mean(rows), want_rstd(rows), mean(rows), rstd(rows);
  layer_norm_rows_reference(x.data(), want.data(), rows, n, wp, bp, 1e-5f, want_mean.data(), want_rstd.data());
  layer_norm_rows_f32(x.data(), got.data(), rows, n, wp, bp, 1e-5f, mean.data(), rstd.data());
  INFO("rows=" << rows << " n=" << n << " affine=" << affine << " offset=" << offset);
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(2e-5));
  for (int64_t r = 0; r < rows; ++r) {
    REQUIRE(mean[r] == Approx(want_mean[r]).margin(1e-5));
    REQUIRE(rstd[r] == Approx(want_rstd[r]).epsilon(1e-5));
  }
}

}  // namespace

TEST_CASE("layer_norm_rows_f32 matches double loops on every tail", "[kernels][layer_norm]") {
  for (int64_t n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 32, 67})
    for (bool affine : {false, true}) check(3, n, affine, 0.0f);
  check(4, 64, true, 100.0f);
}

TEST_CASE("layer_norm_rows_f32 normalizes in place", "[kernels][layer_norm]") {
  std::vector<float> x{1, 2, 3, 4, 5, -1, -2, -3, -4, -5}, want(x.size());
  layer_norm_rows_reference(x.data(), want.data(), 2, 5, nullptr, nullptr, 1e-5f, nullptr, nullptr);
  layer_norm_rows_f32(x.data(), x.data(), 2, 5, nullptr, nullptr, 1e-5f, nullptr, nullptr);
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(x[i] == Approx(want[i]).margin(1e-6));
}
