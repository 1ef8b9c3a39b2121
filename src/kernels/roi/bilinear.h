// The two bilinear sampling rules of torchvision's detection operators, on
// one row-major plane of `height` x `width` values at a fractional (y, x).
// Both compute in T (float or double) in torchvision's order, so results
// round as torch's do.
//
// - clamped (roi_align, ps_roi_align): a point further than one
//   pixel outside the plane (or NaN) gives 0; otherwise coordinates below 0
//   are moved to 0 and those past the last row/column to it, then the four
//   neighbours are weighted.
// - `zero_padded_bilinear` (deform_conv2d): the plane is surrounded by zeros;
//   a point at or beyond one pixel outside (or NaN) gives 0, and each
//   neighbour that falls outside counts as 0.
//
// No errors: callers pass planes of at least one element.
#pragma once

#include <cmath>
#include <cstdint>

namespace pt2web {

// The four neighbours of one sample point and their weights under the
// clamped rule; `inside` is false (weights 0, neighbours 0) for a point more
// than one pixel outside the plane. roi_align computes these once per roi
// and applies them to every channel, as torchvision does, so an outside
// point reads 0 * plane[0] (NaN when plane[0] is NaN or infinite, as in torch).
template <typename T>
struct BilinearTaps {
  int64_t at[4] = {0, 0, 0, 0};
  T weight[4] = {T(0), T(0), T(0), T(0)};
  bool inside = false;
};

template <typename T>
inline BilinearTaps<T> clamped_bilinear_taps(int64_t height, int64_t width, T y, T x) {
  BilinearTaps<T> taps;
  if (!(y >= T(-1) && y <= static_cast<T>(height) && x >= T(-1) && x <= static_cast<T>(width))) return taps;
  if (y <= T(0)) y = T(0);
  if (x <= T(0)) x = T(0);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= height - 1) {
    y0 = y1 = height - 1;
    y = static_cast<T>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= width - 1) {
    x0 = x1 = width - 1;
    x = static_cast<T>(x0);
  } else {
    x1 = x0 + 1;
  }
  const T ly = y - static_cast<T>(y0), lx = x - static_cast<T>(x0);
  const T hy = T(1) - ly, hx = T(1) - lx;
  taps.at[0] = y0 * width + x0;
  taps.at[1] = y0 * width + x1;
  taps.at[2] = y1 * width + x0;
  taps.at[3] = y1 * width + x1;
  taps.weight[0] = hy * hx;
  taps.weight[1] = hy * lx;
  taps.weight[2] = ly * hx;
  taps.weight[3] = ly * lx;
  taps.inside = true;
  return taps;
}

template <typename T>
inline T apply_bilinear_taps(const BilinearTaps<T>& taps, const T* plane) {
  return taps.weight[0] * plane[taps.at[0]] + taps.weight[1] * plane[taps.at[1]] +
         taps.weight[2] * plane[taps.at[2]] + taps.weight[3] * plane[taps.at[3]];
}

// The clamped rule at one point: exactly 0 outside (ps_roi_align's form).
template <typename T>
inline T clamped_bilinear(const T* plane, int64_t height, int64_t width, T y, T x) {
  const BilinearTaps<T> taps = clamped_bilinear_taps(height, width, y, x);
  return taps.inside ? apply_bilinear_taps(taps, plane) : T(0);
}

template <typename T>
inline T zero_padded_bilinear(const T* plane, int64_t height, int64_t width, T y, T x) {
  // Written as "not inside" so that NaN coordinates give 0 too (torchvision
  // would cast them to integers: undefined, and a trap in wasm).
  if (!(y > T(-1) && y < static_cast<T>(height) && x > T(-1) && x < static_cast<T>(width))) return T(0);
  const int64_t y0 = static_cast<int64_t>(std::floor(y)), x0 = static_cast<int64_t>(std::floor(x));
  const int64_t y1 = y0 + 1, x1 = x0 + 1;
  const T ly = y - static_cast<T>(y0), lx = x - static_cast<T>(x0);
  const T hy = T(1) - ly, hx = T(1) - lx;
  const T v00 = (y0 >= 0 && x0 >= 0) ? plane[y0 * width + x0] : T(0);
  const T v01 = (y0 >= 0 && x1 <= width - 1) ? plane[y0 * width + x1] : T(0);
  const T v10 = (y1 <= height - 1 && x0 >= 0) ? plane[y1 * width + x0] : T(0);
  const T v11 = (y1 <= height - 1 && x1 <= width - 1) ? plane[y1 * width + x1] : T(0);
  return hy * hx * v00 + hy * lx * v01 + ly * hx * v10 + ly * lx * v11;
}

}  // namespace pt2web
