// Test data for the kernel tests: smooth, sign-changing values without
// repeats, so that a misplaced element shows.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace pt2web::test {

// n values sin(i * scale + phase).
inline std::vector<float> wave(size_t n, float scale, float phase = 0.2f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * scale + phase);
  return v;
}

}  // namespace pt2web::test
