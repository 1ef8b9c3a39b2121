// FftPlan (kernels/fft) against the plain O(n^2) DFT for every length up to
// 70 (powers of two, composites of primes up to 13, larger primes: the
// radix-2, mixed-radix and Bluestein paths) and a few long ones, both
// directions; and against torch.fft.fft's values for one length.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "kernels/fft/fft.h"

using namespace pt2web;

namespace {

std::vector<cdouble> test_signal(int64_t n) {
  std::vector<cdouble> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[i] = cdouble(std::sin(0.7 * i + 0.3), std::cos(1.3 * i) - 0.25 * (i % 3));
  return x;
}

double max_error(const std::vector<cdouble>& a, const std::vector<cdouble>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

}  // namespace

TEST_CASE("FftPlan matches the direct DFT for every length", "[fft]") {
  std::vector<int64_t> lengths;
  for (int64_t n = 1; n <= 70; ++n) lengths.push_back(n);
  for (int64_t n : {97, 128, 250, 400, 401, 441, 512, 1000, 1013}) lengths.push_back(n);
  for (int64_t n : lengths) {
    FftPlan plan(n);
    for (bool inverse : {false, true}) {
      std::vector<cdouble> x = test_signal(n), want = dft_reference(x, inverse);
      plan.run(x.data(), inverse);
      INFO("n=" << n << " inverse=" << inverse);
      CHECK(max_error(x, want) < 1e-12 * n);
    }
  }
}

TEST_CASE("FftPlan gives torch.fft.fft's values and inverts itself", "[fft]") {
  // torch.fft.fft(torch.tensor([1, 2, 3, 4, 5])) (float32 printed to 10 digits)
  std::vector<cdouble> x = {1, 2, 3, 4, 5};
  FftPlan(5).run(x.data(), false);
  const std::vector<cdouble> want = {{15, 0}, {-2.5, 3.4409548}, {-2.5, 0.81229924}, {-2.5, -0.81229924}, {-2.5, -3.4409548}};
  CHECK(max_error(x, want) < 1e-6);
  std::vector<cdouble> y = test_signal(37), original = y;
  FftPlan plan(37);
  plan.run(y.data(), false);
  plan.run(y.data(), true);
  for (cdouble& v : y) v /= 37.0;
  CHECK(max_error(y, original) < 1e-13);
}

TEST_CASE("fft_along_axis transforms each line of a middle axis", "[fft]") {
  // shape [2, 3, 2]: lines along axis 1 are strided by 2
  std::vector<cdouble> data(12);
  for (int i = 0; i < 12; ++i) data[i] = cdouble(i, -i * 0.5);
  std::vector<cdouble> out = data;
  fft_along_axis(out.data(), {2, 3, 2}, 1, false);
  for (int o = 0; o < 2; ++o) {
    for (int i = 0; i < 2; ++i) {
      std::vector<cdouble> line = {data[o * 6 + i], data[o * 6 + 2 + i], data[o * 6 + 4 + i]};
      std::vector<cdouble> want = dft_reference(line, false);
      for (int k = 0; k < 3; ++k) CHECK(std::abs(out[o * 6 + 2 * k + i] - want[k]) < 1e-12);
    }
  }
}
