// Direct depthwise 2-d convolution: every output channel reads one input
// channel (groups == input channels, any channel multiplier). im2col would
// turn it into thousands of tiny products; here each kernel tap is one
// scaled add of an input row segment onto an output row (vectorized when
// the stride is 1), with the padding handled by clipping the row range.
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
