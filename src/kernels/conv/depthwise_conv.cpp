#include "kernels/conv/depthwise_conv.h"

#include <algorithm>

#include "kernels/parallel/thread_pool.h"
#include "kernels/vec4.h"
#include "util/int_math.h"

namespace pt2web {

namespace {

using simd::Vec4;

// Smallest integer >= a / b for b > 0.

// floor(a / 2) for any sign.
int64_t floor_half(int64_t a) { return a >= 0 ? a / 2 : -((1 - a) / 2); }

// Lanes 0, 2, 4, 6 of the eight floats at p (a stride-2 gather).
inline Vec4 load_even(const float* p) {
  const Vec4 lo = simd::load4(p), hi = simd::load4(p + 4);
  return __builtin_shufflevector(lo, hi, 0, 2, 4, 6);
}

// The input columns of output column ow for tap kw: ow*stride + kw*dilation - pad.
struct ColumnRange {
  int64_t begin = 0, end = 0;  // output columns whose every tap lies inside the row
};

ColumnRange interior_columns(const DepthwiseShape& s) {
  ColumnRange r{0, s.out_w};
  for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
    const int64_t shift = kw * s.dilation_w - s.pad_w;
    r.begin = std::max(r.begin, ceil_div(-shift, s.stride_w));
    r.end = std::min(r.end, ceil_div(s.in_w - shift, s.stride_w));
  }
  r.begin = std::min(r.begin, s.out_w);
  r.end = std::max(r.end, r.begin);
  return r;
}

// One output value with every tap checked against the image borders.
float output_at(const DepthwiseShape& s, const float* in, const float* w, float bias, int64_t oh, int64_t ow) {
  float sum = bias;
  for (int64_t kh = 0; kh < s.kernel_h; ++kh) {
    const int64_t ih = oh * s.stride_h - s.pad_h + kh * s.dilation_h;
    if (ih < 0 || ih >= s.in_h) continue;
    for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
      const int64_t iw = ow * s.stride_w - s.pad_w + kw * s.dilation_w;
      if (iw >= 0 && iw < s.in_w) sum += w[kh * s.kernel_w + kw] * in[ih * s.in_w + iw];
    }
  }
  return sum;
}

// Four adjacent interior outputs starting at ow: every tap accumulates in a
// register and the result is stored once (strides 1 and 2 vectorized).
inline Vec4 four_outputs(const DepthwiseShape& s, const float* in, const float* w, float bias, int64_t oh,
                         int64_t ow) {
  Vec4 acc = simd::splat4(bias);
  for (int64_t kh = 0; kh < s.kernel_h; ++kh) {
    const int64_t ih = oh * s.stride_h - s.pad_h + kh * s.dilation_h;
    if (ih < 0 || ih >= s.in_h) continue;
    const float* row = in + ih * s.in_w + ow * s.stride_w - s.pad_w;
    const float* taps = w + kh * s.kernel_w;
    for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
      const float* p = row + kw * s.dilation_w;
      const Vec4 x = s.stride_w == 1 ? simd::load4(p) : load_even(p);
      acc += simd::splat4(taps[kw]) * x;
    }
  }
  return acc;
}

// The 3x3 undilated case, the one networks use: the nine weights stay in
// registers across the row, and rows above or below the image are skipped
// once per output row.
template <int Stride>
void row_3x3(const DepthwiseShape& s, const float* in, const float* w, float bias, int64_t oh, float* out_row,
             int64_t begin, int64_t end) {
  const Vec4 w00 = simd::splat4(w[0]), w01 = simd::splat4(w[1]), w02 = simd::splat4(w[2]);
  const Vec4 w10 = simd::splat4(w[3]), w11 = simd::splat4(w[4]), w12 = simd::splat4(w[5]);
  const Vec4 w20 = simd::splat4(w[6]), w21 = simd::splat4(w[7]), w22 = simd::splat4(w[8]);
  const int64_t ih0 = oh * s.stride_h - s.pad_h;
  const bool top = ih0 >= 0 && ih0 < s.in_h, middle = ih0 + 1 >= 0 && ih0 + 1 < s.in_h,
             bottom = ih0 + 2 >= 0 && ih0 + 2 < s.in_h;
  const float* r0 = in + ih0 * s.in_w - s.pad_w;
  const float* r1 = r0 + s.in_w;
  const float* r2 = r1 + s.in_w;
  auto load = [](const float* p) { return Stride == 1 ? simd::load4(p) : load_even(p); };
  for (int64_t ow = begin; ow + 4 <= end; ow += 4) {
    const int64_t col = ow * Stride;
    Vec4 acc = simd::splat4(bias);
    if (top) acc += w00 * load(r0 + col) + w01 * load(r0 + col + 1) + w02 * load(r0 + col + 2);
    if (middle) acc += w10 * load(r1 + col) + w11 * load(r1 + col + 1) + w12 * load(r1 + col + 2);
    if (bottom) acc += w20 * load(r2 + col) + w21 * load(r2 + col + 1) + w22 * load(r2 + col + 2);
    simd::store4(out_row + ow, acc);
  }
}

// Output channels [oc0, oc1).
void depthwise_channels(const DepthwiseShape& s, const float* x, const float* w, const float* b, float* y,
                        int64_t oc0, int64_t oc1) {
  const int64_t out_plane = s.out_h * s.out_w, in_plane = s.in_h * s.in_w;
  const int64_t taps = s.kernel_h * s.kernel_w;
  const ColumnRange interior = interior_columns(s);
  const bool vectorized = s.stride_w == 1 || s.stride_w == 2;
  const bool three_by_three = s.kernel_h == 3 && s.kernel_w == 3 && s.dilation_h == 1 && s.dilation_w == 1;
  for (int64_t oc = oc0; oc < oc1; ++oc) {
    const float* in = x + (oc / s.multiplier) * in_plane;
    const float* weights = w + oc * taps;
    const float bias = b ? b[oc] : 0.0f;
    float* out = y + oc * out_plane;
    for (int64_t oh = 0; oh < s.out_h; ++oh) {
      float* out_row = out + oh * s.out_w;
      int64_t ow = 0;
      for (; ow < interior.begin; ++ow) out_row[ow] = output_at(s, in, weights, bias, oh, ow);
      if (vectorized) {
        // A stride-2 vector reads 8 floats from its last tap's column, one
        // past the last it uses: that one must still be inside the row.
        const int64_t reach = (s.kernel_w - 1) * s.dilation_w - s.pad_w;
        int64_t end = interior.end;
        if (s.stride_w == 2) end = std::min(end, floor_half(s.in_w - reach - 8) + 4);
        if (three_by_three) {
          if (s.stride_w == 1) row_3x3<1>(s, in, weights, bias, oh, out_row, ow, end);
          else row_3x3<2>(s, in, weights, bias, oh, out_row, ow, end);
          if (end > ow) ow += (end - ow) / 4 * 4;
        } else {
          for (; ow + 4 <= end; ow += 4) simd::store4(out_row + ow, four_outputs(s, in, weights, bias, oh, ow));
        }
      }
      for (; ow < s.out_w; ++ow) out_row[ow] = output_at(s, in, weights, bias, oh, ow);
    }
  }
}

}  // namespace

void depthwise_conv2d_f32(const DepthwiseShape& s, const float* x, const float* w, const float* b, float* y) {
  const int64_t per_channel = s.out_h * s.out_w * s.kernel_h * s.kernel_w;
  parallel::parallel_for(
      s.channels_in * s.multiplier, 1, parallel::min_items_for(per_channel),
      [&](int64_t oc0, int64_t oc1) { depthwise_channels(s, x, w, b, y, oc0, oc1); }, 4);
}

}  // namespace pt2web
