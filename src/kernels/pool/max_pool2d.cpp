#include "kernels/pool/max_pool2d.h"

#include <cmath>
#include <limits>

#include "kernels/parallel/thread_pool.h"
#include "kernels/math/vec4_math.h"
#include "kernels/vec4.h"

namespace pt2web {

namespace {

using simd::Vec4;

// The larger of a and b, NaN if either is NaN.
inline float max_nan(float a, float b) { return (a > b || a != a) ? a : b; }

inline Vec4 max_nan4(Vec4 a, Vec4 b) { return simd::select4((a > b) | (a != a), a, b); }

// One window's maximum, read in place.
inline float window_max(const MaxPool2dShape& s, const float* plane, int64_t oh, int64_t ow) {
  float best = -std::numeric_limits<float>::infinity();
  const float* top = plane + oh * s.stride_h * s.in_w + ow * s.stride_w;
  for (int64_t kh = 0; kh < s.kernel_h; ++kh)
    for (int64_t kw = 0; kw < s.kernel_w; ++kw) best = max_nan(top[kh * s.in_w + kw], best);
  return best;
}

// 2x2 windows, stride 2: rows 2*oh and 2*oh+1 give out_w outputs.
void row_2x2(const float* top, const float* bottom, float* out, int64_t out_w) {
  int64_t ow = 0;
  for (; ow + 4 <= out_w; ow += 4) {
    const Vec4 lo = max_nan4(simd::load4(top + 2 * ow), simd::load4(bottom + 2 * ow));
    const Vec4 hi = max_nan4(simd::load4(top + 2 * ow + 4), simd::load4(bottom + 2 * ow + 4));
    const Vec4 even = __builtin_shufflevector(lo, hi, 0, 2, 4, 6), odd = __builtin_shufflevector(lo, hi, 1, 3, 5, 7);
    simd::store4(out + ow, max_nan4(even, odd));
  }
  for (; ow < out_w; ++ow)
    out[ow] = max_nan(max_nan(top[2 * ow], top[2 * ow + 1]), max_nan(bottom[2 * ow], bottom[2 * ow + 1]));
}

void pool_planes(const MaxPool2dShape& s, const float* in, float* out, int64_t p0, int64_t p1) {
  const bool two_by_two = s.kernel_h == 2 && s.kernel_w == 2 && s.stride_h == 2 && s.stride_w == 2;
  for (int64_t p = p0; p < p1; ++p) {
    const float* plane = in + p * s.in_h * s.in_w;
    float* dst = out + p * s.out_h * s.out_w;
    for (int64_t oh = 0; oh < s.out_h; ++oh, dst += s.out_w) {
      if (two_by_two) {
        const float* top = plane + 2 * oh * s.in_w;
        row_2x2(top, top + s.in_w, dst, s.out_w);
      } else {
        for (int64_t ow = 0; ow < s.out_w; ++ow) dst[ow] = window_max(s, plane, oh, ow);
      }
    }
  }
}

}  // namespace

bool max_pool2d_windows_inside(const MaxPool2dShape& s) {
  return s.out_h > 0 && s.out_w > 0 && (s.out_h - 1) * s.stride_h + s.kernel_h <= s.in_h &&
         (s.out_w - 1) * s.stride_w + s.kernel_w <= s.in_w;
}

void max_pool2d_f32(const MaxPool2dShape& s, const float* in, float* out) {
  const int64_t per_plane = s.out_h * s.out_w * s.kernel_h * s.kernel_w;
  parallel::parallel_for(
      s.planes, 1, parallel::min_items_for(per_plane),
      [&](int64_t p0, int64_t p1) { pool_planes(s, in, out, p0, p1); }, 4);
}

void max_pool2d_reference(const MaxPool2dShape& s, const float* in, float* out) {
  for (int64_t p = 0; p < s.planes; ++p)
    for (int64_t oh = 0; oh < s.out_h; ++oh)
      for (int64_t ow = 0; ow < s.out_w; ++ow) {
        float best = -std::numeric_limits<float>::infinity();
        bool nan = false;
        for (int64_t kh = 0; kh < s.kernel_h; ++kh)
          for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
            const float v = in[(p * s.in_h + oh * s.stride_h + kh) * s.in_w + ow * s.stride_w + kw];
            nan = nan || std::isnan(v);
            if (v > best) best = v;
          }
        out[(p * s.out_h + oh) * s.out_w + ow] = nan ? std::numeric_limits<float>::quiet_NaN() : best;
      }
}

}  // namespace pt2web
