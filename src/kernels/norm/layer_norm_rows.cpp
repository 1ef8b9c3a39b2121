// Layer normalization of float32 rows (see layer_norm_rows.h).
#include "kernels/norm/layer_norm_rows.h"

#include <algorithm>
#include <cmath>

#include "kernels/vec4.h"

namespace pt2web {

namespace {

using simd::load4;
using simd::splat4;
using simd::store4;
using simd::sum4;
using simd::Vec4;

float row_sum(const float* x, int64_t n) {
  Vec4 a0 = splat4(0.0f), a1 = a0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    a0 += load4(x + i);
    a1 += load4(x + i + 4);
  }
  if (i + 4 <= n) {
    a0 += load4(x + i);
    i += 4;
  }
  float s = sum4(a0 + a1);
  for (; i < n; ++i) s += x[i];
  return s;
}

float row_squared_deviation(const float* x, int64_t n, float mean) {
  const Vec4 mu = splat4(mean);
  Vec4 a0 = splat4(0.0f), a1 = a0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const Vec4 d0 = load4(x + i) - mu, d1 = load4(x + i + 4) - mu;
    a0 += d0 * d0;
    a1 += d1 * d1;
  }
  if (i + 4 <= n) {
    const Vec4 d = load4(x + i) - mu;
    a0 += d * d;
    i += 4;
  }
  float s = sum4(a0 + a1);
  for (; i < n; ++i) s += (x[i] - mean) * (x[i] - mean);
  return s;
}

// y = (x * scale + shift) * w + b, with w / b left out when null.
void affine_row(const float* x, float* y, int64_t n, float scale, float shift, const float* w, const float* b) {
  const Vec4 a = splat4(scale), s = splat4(shift);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    Vec4 v = load4(x + i) * a + s;
    if (w) v *= load4(w + i);
    if (b) v += load4(b + i);
    store4(y + i, v);
  }
  for (; i < n; ++i) {
    float v = x[i] * scale + shift;
    if (w) v *= w[i];
    if (b) v += b[i];
    y[i] = v;
  }
}

}  // namespace

void layer_norm_rows_f32(const float* x, float* y, int64_t rows, int64_t n, const float* w, const float* b, float eps,
                         float* mean, float* rstd) {
  const float inv_n = 1.0f / static_cast<float>(n);
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * n;
    const float mu = row_sum(xr, n) * inv_n;
    const float var = row_squared_deviation(xr, n, mu) * inv_n;
    const float rs = 1.0f / std::sqrt(std::max(var, 0.0f) + eps);
    if (mean) mean[r] = mu;
    if (rstd) rstd[r] = rs;
    affine_row(xr, y + r * n, n, rs, -rs * mu, w, b);
  }
}

void layer_norm_rows_reference(const float* x, float* y, int64_t rows, int64_t n, const float* w, const float* b,
                               float eps, float* mean, float* rstd) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * n;
    double sum = 0.0, sq = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += xr[i];
    const double mu = sum / static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) sq += (xr[i] - mu) * (xr[i] - mu);
    const double rs = 1.0 / std::sqrt(sq / static_cast<double>(n) + eps);
    if (mean) mean[r] = static_cast<float>(mu);
    if (rstd) rstd[r] = static_cast<float>(rs);
    for (int64_t i = 0; i < n; ++i)
      y[r * n + i] = static_cast<float>((xr[i] - mu) * rs * (w ? w[i] : 1.0) + (b ? b[i] : 0.0));
  }
}

}  // namespace pt2web
