// A four-lane float vector for the kernels, written with the GCC/Clang
// vector extension so that one source compiles to wasm SIMD128 (with
// -msimd128) and to SSE natively; tests run the same code on both.
// Loads and stores are unaligned-safe.
#pragma once

#include <cstdint>
#include <cstring>

namespace pt2web::simd {

typedef float Vec4 __attribute__((vector_size(16)));

inline Vec4 load4(const float* p) {
  Vec4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store4(float* p, Vec4 v) { std::memcpy(p, &v, sizeof v); }

// All four lanes = *p (v128.load32_splat in wasm).
inline Vec4 splat4(const float* p) {
  const float x = *p;
  return Vec4{x, x, x, x};
}

inline Vec4 splat4(float x) { return Vec4{x, x, x, x}; }

typedef int32_t Vec4i __attribute__((vector_size(16)));

inline Vec4i splat_i(int32_t x) { return Vec4i{x, x, x, x}; }

inline float sum4(Vec4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

}  // namespace pt2web::simd
