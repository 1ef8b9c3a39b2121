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

// Rows r0..r3 of a 4x4 block become its columns.
inline void transpose4(Vec4& r0, Vec4& r1, Vec4& r2, Vec4& r3) {
  const Vec4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5), t1 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
  const Vec4 t2 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7), t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
  r0 = __builtin_shufflevector(t0, t1, 0, 1, 4, 5);
  r1 = __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
  r2 = __builtin_shufflevector(t2, t3, 0, 1, 4, 5);
  r3 = __builtin_shufflevector(t2, t3, 2, 3, 6, 7);
}

}  // namespace pt2web::simd
