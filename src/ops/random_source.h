// RandomSource: the seeded generator behind pt2web's random operators (rand,
// randn, randint, uniform_, normal_, bernoulli, ...). Each run context (the
// executor of one loaded program) owns one, so a program's draws depend only
// on its seed and on how many values it drew before: the same seed gives the
// same values, run after run, natively and in wasm.
//
// The stream is xoshiro256** seeded through splitmix64 (Blackman and Vigna),
// normals by the Box-Muller transform. It is not torch's Mersenne Twister
// stream: values differ from torch's for the same seed, by design.
//
// Ownership: a plain value. Nothing here throws.
#pragma once

#include <cmath>
#include <cstdint>

namespace pt2web {

class RandomSource {
 public:
  explicit RandomSource(uint64_t seed = 0) { reseed(seed); }

  void reseed(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& s : state_) s = splitmix64(x);
    spare_normal_valid_ = false;
  }

  uint64_t next_u64() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n) for n > 0, without modulo bias.
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do v = next_u64();
    while (v >= limit);
    return v % n;
  }

  // Standard normal.
  double normal() {
    if (spare_normal_valid_) {
      spare_normal_valid_ = false;
      return spare_normal_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: log is finite
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * 3.14159265358979323846 * u2;
    spare_normal_ = r * std::sin(angle);
    spare_normal_valid_ = true;
    return r * std::cos(angle);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  uint64_t state_[4] = {};
  double spare_normal_ = 0;
  bool spare_normal_valid_ = false;
};

}  // namespace pt2web
