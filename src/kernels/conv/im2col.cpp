#include "kernels/conv/im2col.h"

#include <algorithm>
#include <cstring>

#include "kernels/parallel/thread_pool.h"
#include "util/int_math.h"

namespace pt2web {

namespace {

// Smallest integer >= a / b for b > 0.

// Rows of channels [c0, c1) of the column matrix.
void im2col_channels(const Im2colShape& s, const float* image, float* cols, int64_t c0, int64_t c1) {
  const int64_t out_plane = s.out_h * s.out_w;
  cols += c0 * s.kernel_h * s.kernel_w * out_plane;
  for (int64_t c = c0; c < c1; ++c) {
    const float* plane = image + c * s.in_h * s.in_w;
    for (int64_t kh = 0; kh < s.kernel_h; ++kh)
      for (int64_t kw = 0; kw < s.kernel_w; ++kw, cols += out_plane) {
        const auto [begin, end, shift] = inside_columns(s, kw);
        for (int64_t oh = 0; oh < s.out_h; ++oh) {
          float* dst = cols + oh * s.out_w;
          const int64_t ih = oh * s.stride_h - s.pad_h + kh * s.dilation_h;
          if (ih < 0 || ih >= s.in_h) {
            std::fill(dst, dst + s.out_w, 0.0f);
            continue;
          }
          const float* row = plane + ih * s.in_w;
          std::fill(dst, dst + begin, 0.0f);
          if (s.stride_w == 1) {
            std::memcpy(dst + begin, row + begin + shift, sizeof(float) * (end - begin));
          } else {
            for (int64_t ow = begin; ow < end; ++ow) dst[ow] = row[ow * s.stride_w + shift];
          }
          std::fill(dst + end, dst + s.out_w, 0.0f);
        }
      }
  }
}

}  // namespace

OutputColumnRange inside_columns(const Im2colShape& s, int64_t kw) {
  OutputColumnRange r;
  r.shift = kw * s.dilation_w - s.pad_w;
  r.begin = std::min(s.out_w, std::max<int64_t>(0, ceil_div(-r.shift, s.stride_w)));
  r.end = std::max(r.begin, std::min<int64_t>(s.out_w, ceil_div(s.in_w - r.shift, s.stride_w)));
  return r;
}

void im2col_2d_f32(const Im2colShape& s, const float* image, float* cols) {
  const int64_t per_channel = s.kernel_h * s.kernel_w * s.out_h * s.out_w;
  parallel::parallel_for(
      s.channels, 1, parallel::min_items_for(per_channel),
      [&](int64_t c0, int64_t c1) { im2col_channels(s, image, cols, c0, c1); }, 4);
}

}  // namespace pt2web
