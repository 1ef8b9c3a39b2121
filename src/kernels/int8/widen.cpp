#include "kernels/int8/widen.h"

namespace pt2web {

template <typename Q>
void widen_rows(const Q* src, int64_t rows, int64_t cols, int64_t ld, const int32_t* zero_points, bool per_row,
                int16_t* dst, int64_t dst_ld) {
  if (dst_ld < 0) dst_ld = cols;
  for (int64_t r = 0; r < rows; ++r) {
    const int32_t zp = zero_points[per_row ? r : 0];
    const Q* s = src + r * ld;
    int16_t* d = dst + r * dst_ld;
    for (int64_t c = 0; c < cols; ++c) d[c] = static_cast<int16_t>(int32_t(s[c]) - zp);
    for (int64_t c = cols; c < dst_ld; ++c) d[c] = 0;
  }
}

template <typename Q>
void widen_padded_plane(const Q* plane, int64_t height, int64_t width, int64_t pad_h, int64_t pad_w,
                        int32_t zero_point, int16_t* padded) {
  const int64_t padded_w = width + 2 * pad_w, padded_h = height + 2 * pad_h;
  for (int64_t r = 0; r < padded_h; ++r) {
    int16_t* dst = padded + r * padded_w;
    const int64_t ih = r - pad_h;
    if (ih < 0 || ih >= height) {
      for (int64_t c = 0; c < padded_w; ++c) dst[c] = 0;
      continue;
    }
    for (int64_t c = 0; c < pad_w; ++c) dst[c] = dst[padded_w - 1 - c] = 0;
    const Q* src = plane + ih * width;
    for (int64_t c = 0; c < width; ++c) dst[pad_w + c] = static_cast<int16_t>(int32_t(src[c]) - zero_point);
  }
}

template <typename Q>
void im2col_s16(const Q* image, const ConvGeometry& g, int32_t zero_point, int16_t* rows) {
  const int64_t K = g.channels * g.kernel_h * g.kernel_w;
  for (int64_t oh = 0; oh < g.out_h; ++oh)
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      int16_t* row = rows + (oh * g.out_w + ow) * K;
      for (int64_t c = 0; c < g.channels; ++c) {
        const Q* plane = image + c * g.height * g.width;
        for (int64_t i = 0; i < g.kernel_h; ++i) {
          const int64_t ih = oh * g.stride_h - g.pad_h + i * g.dilation_h;
          for (int64_t j = 0; j < g.kernel_w; ++j) {
            const int64_t iw = ow * g.stride_w - g.pad_w + j * g.dilation_w;
            const bool inside = ih >= 0 && ih < g.height && iw >= 0 && iw < g.width;
            *row++ = inside ? static_cast<int16_t>(int32_t(plane[ih * g.width + iw]) - zero_point) : int16_t(0);
          }
        }
      }
    }
}

template void widen_rows<int8_t>(const int8_t*, int64_t, int64_t, int64_t, const int32_t*, bool, int16_t*, int64_t);
template void widen_rows<uint8_t>(const uint8_t*, int64_t, int64_t, int64_t, const int32_t*, bool, int16_t*,
                                  int64_t);
template void widen_padded_plane<int8_t>(const int8_t*, int64_t, int64_t, int64_t, int64_t, int32_t, int16_t*);
template void widen_padded_plane<uint8_t>(const uint8_t*, int64_t, int64_t, int64_t, int64_t, int32_t, int16_t*);
template void im2col_s16<int8_t>(const int8_t*, const ConvGeometry&, int32_t, int16_t*);
template void im2col_s16<uint8_t>(const uint8_t*, const ConvGeometry&, int32_t, int16_t*);

}  // namespace pt2web
