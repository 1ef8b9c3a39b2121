// Direct depthwise 2-d convolution: every output channel reads one input
// channel (groups == input channels, any channel multiplier). im2col would
// turn it into thousands of tiny products. Here four adjacent outputs
// accumulate every tap in one register and are stored once (strides 1 and
// 2); outputs whose window crosses the border are computed one by one.
#pragma once

#include <cstdint>

namespace pt2web {

struct DepthwiseShape {
  int64_t channels_in = 0;
  int64_t multiplier = 1;  // output channels per input channel
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dilation_h = 1,
          dilation_w = 1;
};

// y[channels_in*multiplier, out_h, out_w] = depthwise(x[channels_in, in_h, in_w],
// w[channels_in*multiplier, kernel_h, kernel_w]) + b (b may be null). One image.
void depthwise_conv2d_f32(const DepthwiseShape& s, const float* x, const float* w, const float* b, float* y);

}  // namespace pt2web
