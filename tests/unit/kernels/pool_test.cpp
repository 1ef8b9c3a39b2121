// The 2-d max-pool kernel against its reference loop: 2x2/2 windows (the
// vector path) on widths around the vector length, odd sizes that leave
// inputs unused, other kernel and stride shapes, NaNs that must win, and
// several threads.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/parallel/thread_pool.h"
#include "kernels/pool/max_pool2d.h"

using namespace pt2web;

namespace {

MaxPool2dShape shape(int64_t planes, int64_t in_h, int64_t in_w, int64_t k_h, int64_t k_w, int64_t s_h, int64_t s_w) {
  MaxPool2dShape s;
  s.planes = planes;
  s.in_h = in_h;
  s.in_w = in_w;
  s.kernel_h = k_h;
  s.kernel_w = k_w;
  s.stride_h = s_h;
  s.stride_w = s_w;
  s.out_h = (in_h - k_h) / s_h + 1;
  s.out_w = (in_w - k_w) / s_w + 1;
  return s;
}

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

TEST_CASE("2-d max pooling matches the reference loop", "[kernels][pool]") {
  const MaxPool2dShape shapes[] = {
      shape(3, 8, 8, 2, 2, 2, 2),   shape(2, 9, 17, 2, 2, 2, 2), shape(5, 4, 2, 2, 2, 2, 2),
      shape(1, 6, 30, 2, 2, 2, 2),  shape(2, 7, 7, 3, 3, 2, 2),  shape(2, 5, 6, 3, 2, 1, 1),
      shape(40, 16, 16, 2, 2, 2, 2), shape(1, 3, 3, 3, 3, 3, 3),
  };
  for (int threads : {1, 2}) {
    parallel::ThreadBudget scope(threads);
    for (const MaxPool2dShape& s : shapes) {
      INFO("planes " << s.planes << " in " << s.in_h << "x" << s.in_w << " kernel " << s.kernel_h << "x" << s.kernel_w
                     << " stride " << s.stride_h << "x" << s.stride_w << " threads " << threads);
      REQUIRE(max_pool2d_windows_inside(s));
      std::vector<float> in(static_cast<size_t>(s.planes * s.in_h * s.in_w));
      for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(static_cast<float>(i) * 0.77f) * 3.0f;
      in[in.size() / 3] = std::numeric_limits<float>::quiet_NaN();
      in[in.size() / 2 + 1] = -std::numeric_limits<float>::infinity();
      const size_t n_out = static_cast<size_t>(s.planes * s.out_h * s.out_w);
      std::vector<float> expected(n_out), got(n_out, 7.0f);
      max_pool2d_reference(s, in.data(), expected.data());
      max_pool2d_f32(s, in.data(), got.data());
      size_t mismatches = 0;
      for (size_t i = 0; i < n_out; ++i) mismatches += !same(expected[i], got[i]);
      CHECK(mismatches == 0);
    }
  }
}

TEST_CASE("windows that reach past the input are refused", "[kernels][pool]") {
  MaxPool2dShape s = shape(1, 5, 5, 2, 2, 2, 2);
  s.out_w = 3;  // ceil mode: a last window starting at column 4 of 5
  CHECK_FALSE(max_pool2d_windows_inside(s));
}
