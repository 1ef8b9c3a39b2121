// The direct small convolution against plain loops: output widths around
// the four-lane runs (and an odd number of runs), channel counts around the
// block of four, padding on either side, non-square kernels, no bias; and
// conv_forward's dispatch to it on a batch.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "kernels/conv/convolution.h"
#include "kernels/conv/small_conv.h"

using namespace pt2web;

namespace {

std::vector<float> wave(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * scale + 0.2f);
  return v;
}

void check(int64_t cin, int64_t cout, int64_t h, int64_t w, int64_t kh, int64_t kw, int64_t pad_h, int64_t pad_w,
           bool bias) {
  SmallConvShape s;
  s.in_channels = cin, s.out_channels = cout, s.in_h = h, s.in_w = w, s.kernel_h = kh, s.kernel_w = kw;
  s.pad_h = pad_h, s.pad_w = pad_w;
  s.out_h = h + 2 * pad_h - kh + 1, s.out_w = w + 2 * pad_w - kw + 1;
  std::vector<float> x = wave(static_cast<size_t>(cin * h * w), 0.61f);
  std::vector<float> wt = wave(static_cast<size_t>(cout * cin * kh * kw), 1.7f);
  std::vector<float> b = wave(static_cast<size_t>(cout), 2.3f);
  const size_t n = static_cast<size_t>(cout * s.out_h * s.out_w);
  std::vector<float> want(n), got(n, 777.0f);
  small_conv2d_reference(s, x.data(), wt.data(), bias ? b.data() : nullptr, want.data());
  small_conv2d_f32(s, x.data(), wt.data(), bias ? b.data() : nullptr, got.data());
  INFO("cin=" << cin << " cout=" << cout << " " << h << "x" << w << " k=" << kh << "x" << kw << " pad=" << pad_h
              << "," << pad_w << " bias=" << bias);
  for (size_t i = 0; i < n; ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-4));
}

}  // namespace

TEST_CASE("small_conv2d_f32 matches plain loops on every tail", "[kernels][small_conv]") {
  for (int64_t w : {3, 4, 5, 7, 8, 9, 13})
    for (int64_t cout : {1, 3, 4, 5, 8}) check(2, cout, 5, w, 3, 3, 1, 1, true);
  check(1, 16, 8, 8, 3, 3, 1, 1, true);   // digits_cnn's first layer
  check(16, 32, 4, 4, 3, 3, 1, 1, true);  // and its second
  check(3, 6, 6, 9, 2, 5, 0, 2, false);
  check(4, 4, 7, 7, 1, 2, 0, 0, true);
  check(3, 5, 9, 6, 5, 3, 2, 0, true);
}

TEST_CASE("conv_forward runs small float32 convolutions through the direct kernel", "[kernels][small_conv]") {
  ConvShape s;
  s.batch = 3, s.in_channels = 5, s.out_channels = 6;
  s.input = {1, 6, 7}, s.output = {1, 6, 7}, s.kernel = {1, 3, 3}, s.pad = {0, 1, 1};
  SmallConvShape q;
  q.in_channels = 5, q.out_channels = 6, q.in_h = q.out_h = 6, q.in_w = q.out_w = 7;
  q.kernel_h = q.kernel_w = 3, q.pad_h = q.pad_w = 1;
  REQUIRE(small_conv_applies(q));
  std::vector<float> x = wave(3 * 5 * 42, 0.3f), w = wave(6 * 5 * 9, 0.9f), b = wave(6, 1.1f);
  std::vector<float> got(3 * 6 * 42), want(got.size());
  conv_forward<float>(s, x.data(), w.data(), b.data(), got.data());
  for (int64_t n = 0; n < 3; ++n)
    small_conv2d_reference(q, x.data() + n * 5 * 42, w.data(), b.data(), want.data() + n * 6 * 42);
  for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-4));
}
