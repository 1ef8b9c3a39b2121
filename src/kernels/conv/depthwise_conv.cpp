#include "kernels/conv/depthwise_conv.h"

#include <algorithm>

#include "kernels/vec4.h"

namespace pt2web {

namespace {

// Smallest integer >= a / b for b > 0.
int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// out[o] += weight * in[o * stride + offset] for o in [begin, end).
void scaled_add(float* out, const float* in, float weight, int64_t begin, int64_t end, int64_t stride,
                int64_t offset) {
  int64_t o = begin;
  if (stride == 1) {
    const simd::Vec4 wv = simd::splat4(weight);
    const float* src = in + offset;
    for (; o + 4 <= end; o += 4) simd::store4(out + o, simd::load4(out + o) + wv * simd::load4(src + o));
  }
  for (; o < end; ++o) out[o] += weight * in[o * stride + offset];
}

}  // namespace

void depthwise_conv2d_f32(const DepthwiseShape& s, const float* x, const float* w, const float* b, float* y) {
  const int64_t out_plane = s.out_h * s.out_w, in_plane = s.in_h * s.in_w;
  const int64_t taps = s.kernel_h * s.kernel_w;
  for (int64_t oc = 0; oc < s.channels_in * s.multiplier; ++oc) {
    const float* in = x + (oc / s.multiplier) * in_plane;
    float* out = y + oc * out_plane;
    std::fill(out, out + out_plane, b ? b[oc] : 0.0f);
    for (int64_t kh = 0; kh < s.kernel_h; ++kh)
      for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
        const float weight = w[oc * taps + kh * s.kernel_w + kw];
        // Output columns whose input column ow*stride - pad + kw*dilation is inside the row.
        const int64_t shift = kw * s.dilation_w - s.pad_w;
        const int64_t col_begin = std::max<int64_t>(0, ceil_div(-shift, s.stride_w));
        const int64_t col_end = std::min<int64_t>(s.out_w, ceil_div(s.in_w - shift, s.stride_w));
        if (col_begin >= col_end) continue;
        for (int64_t oh = 0; oh < s.out_h; ++oh) {
          const int64_t ih = oh * s.stride_h - s.pad_h + kh * s.dilation_h;
          if (ih < 0 || ih >= s.in_h) continue;
          scaled_add(out + oh * s.out_w, in + ih * s.in_w, weight, col_begin, col_end, s.stride_w, shift);
        }
      }
  }
}

}  // namespace pt2web
