// Transcendental functions on four float lanes (kernels/vec4.h), for
// the activation and softmax kernels: exp (Cephes-style range reduction
// and a degree-6 polynomial, about 1 ulp, denormal results included),
// erfc (Numerical Recipes' Chebyshev fit, relative error below 1.2e-7 on
// the whole line), tanh (an odd polynomial near zero, exp beyond) and the
// logistic sigmoid. inf, -inf and NaN give what std:: gives.
#pragma once

#include <cstdint>

#include "kernels/vec4.h"

namespace pt2web::simd {


// Lane-wise mask ? a : b (mask lanes are all ones or all zeros).
inline Vec4 select4(Vec4i mask, Vec4 a, Vec4 b) {
  return reinterpret_cast<Vec4>((mask & reinterpret_cast<Vec4i>(a)) | (~mask & reinterpret_cast<Vec4i>(b)));
}

inline Vec4 abs4(Vec4 x) { return reinterpret_cast<Vec4>(reinterpret_cast<Vec4i>(x) & splat_i(0x7fffffff)); }

// f32x4.floor where SIMD128 has it (one instruction); elsewhere truncate
// and step down where truncation rounded up. Callers pass |x| < 2^31.
inline Vec4 floor4(Vec4 x) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_floor_f32x4(x);
#else
  const Vec4 truncated = __builtin_convertvector(__builtin_convertvector(x, Vec4i), Vec4);
  return truncated - select4(truncated > x, splat4(1.0f), splat4(0.0f));
#endif
}

// 2^n for integral n in [-126, 127].
inline Vec4 pow2_4(Vec4i n) { return reinterpret_cast<Vec4>((n + splat_i(127)) << 23); }

inline Vec4 exp4(Vec4 x) {
  const Vec4 clamped = select4(x > splat4(88.7228f), splat4(88.7228f), select4(x < splat4(-104.0f), splat4(-104.0f), x));
  const Vec4 n = floor4(clamped * splat4(1.44269504088896341f) + splat4(0.5f));
  Vec4 r = clamped - n * splat4(0.693359375f);
  r = r - n * splat4(-2.12194440e-4f);
  const Vec4 r2 = r * r;
  Vec4 p = splat4(1.9875691500e-4f);
  p = p * r + splat4(1.3981999507e-3f);
  p = p * r + splat4(8.3334519073e-3f);
  p = p * r + splat4(4.1665795894e-2f);
  p = p * r + splat4(1.6666665459e-1f);
  p = p * r + splat4(5.0000001201e-1f);
  p = p * r2 + r + splat4(1.0f);
  // Scale by 2^n in two steps so that denormal results and 2^128 stay exact.
  const Vec4i ni = __builtin_convertvector(n, Vec4i);
  const Vec4i half = ni >> 1;
  Vec4 result = p * pow2_4(half) * pow2_4(ni - half);
  result = select4(x > splat4(88.7228f), splat4(__builtin_inff()), result);
  return select4(x != x, x, result);
}

// erfc(x) with relative error below 1.2e-7.
inline Vec4 erfc4(Vec4 x) {
  const Vec4 z = abs4(x);
  const Vec4 t = splat4(1.0f) / (splat4(1.0f) + splat4(0.5f) * z);
  Vec4 p = splat4(0.17087277f);
  p = p * t + splat4(-0.82215223f);
  p = p * t + splat4(1.48851587f);
  p = p * t + splat4(-1.13520398f);
  p = p * t + splat4(0.27886807f);
  p = p * t + splat4(-0.18628806f);
  p = p * t + splat4(0.09678418f);
  p = p * t + splat4(0.37409196f);
  p = p * t + splat4(1.00002368f);
  p = p * t + splat4(-1.26551223f);
  const Vec4 positive = t * exp4(p - z * z);
  const Vec4 result = select4(x < splat4(0.0f), splat4(2.0f) - positive, positive);
  return select4(x != x, x, result);
}

inline Vec4 tanh4(Vec4 x) {
  const Vec4 z = abs4(x);
  // |x| < 0.625: x + x^3 P(x^2).
  const Vec4 x2 = x * x;
  Vec4 p = splat4(-5.70498872745e-3f);
  p = p * x2 + splat4(2.06390887954e-2f);
  p = p * x2 + splat4(-5.37397155531e-2f);
  p = p * x2 + splat4(1.33314422036e-1f);
  p = p * x2 + splat4(-3.33332819422e-1f);
  const Vec4 small = p * x2 * x + x;
  // Otherwise 1 - 2 / (exp(2|x|) + 1), with x's sign.
  const Vec4 large_abs = splat4(1.0f) - splat4(2.0f) / (exp4(z + z) + splat4(1.0f));
  const Vec4 large = reinterpret_cast<Vec4>(reinterpret_cast<Vec4i>(large_abs) |
                                            (reinterpret_cast<Vec4i>(x) & splat_i(static_cast<int32_t>(0x80000000u))));
  const Vec4 result = select4(z < splat4(0.625f), small, large);
  return select4(x != x, x, result);
}

inline Vec4 sigmoid4(Vec4 x) { return splat4(1.0f) / (splat4(1.0f) + exp4(-x)); }

}  // namespace pt2web::simd
