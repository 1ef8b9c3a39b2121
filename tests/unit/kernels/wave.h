// Test data for the kernel tests: smooth, sign-changing values without
// repeats, so that a misplaced element shows, and a seeded pseudo-random stream.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pt2web::test {

// n values sin(i * scale + phase).
inline std::vector<float> wave(size_t n, float scale, float phase = 0.2f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * scale + phase);
  return v;
}

// n deterministic values in [-1, 1) from a linear congruential stream.
inline std::vector<float> pseudo_random(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / static_cast<float>(1u << 24) * 2.0f - 1.0f;
  }
  return v;
}

}  // namespace pt2web::test
