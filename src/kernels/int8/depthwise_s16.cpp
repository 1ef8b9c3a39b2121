#include "kernels/int8/depthwise_s16.h"

namespace pt2web {

void depthwise_s16(const int16_t* padded, const int16_t* weights, const ConvGeometry& g, int32_t* out) {
  const int64_t padded_w = g.width + 2 * g.pad_w;
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    int32_t* row = out + oh * g.out_w;
    for (int64_t ow = 0; ow < g.out_w; ++ow) row[ow] = 0;
    for (int64_t i = 0; i < g.kernel_h; ++i) {
      const int16_t* in = padded + (oh * g.stride_h + i * g.dilation_h) * padded_w;
      for (int64_t j = 0; j < g.kernel_w; ++j) {
        const int32_t w = weights[i * g.kernel_w + j];
        const int16_t* x = in + j * g.dilation_w;
        if (g.stride_w == 1) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) row[ow] += int32_t(x[ow]) * w;
        } else {
          for (int64_t ow = 0; ow < g.out_w; ++ow) row[ow] += int32_t(x[ow * g.stride_w]) * w;
        }
      }
    }
  }
}

}  // namespace pt2web
