// Direct 2-d convolution for few channels on small images (small_conv.cpp):
// stride 1, no dilation, one group. A zero-bordered copy of the image
// replaces im2col and GEMM packing, whose fixed costs dominate at these
// sizes; each step accumulates four output channels times two runs of four
// adjacent outputs in registers over every input channel and tap.
// Owns nothing but its per-thread scratch; raises no errors (the caller
// checks the geometry with small_conv_applies).
#pragma once

#include <cstdint>

#include "kernels/conv/convolution.h"

namespace pt2web {

struct SmallConvShape {
  int64_t in_channels = 0, out_channels = 0;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t kernel_h = 1, kernel_w = 1, pad_h = 0, pad_w = 0;  // leading padding
};

// Whether the direct kernel is the faster choice for this geometry (small
// output planes, few input channels times taps).
bool small_conv_applies(const SmallConvShape& s);

// y[out_channels, out_h, out_w] = conv(x[in_channels, in_h, in_w],
// w[out_channels, in_channels, kernel_h, kernel_w]) + b (b may be null). One image.
void small_conv2d_f32(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y);

// conv_forward's entry: runs a float32 convolution through the direct
// kernel, image by image (split across threads), when its geometry fits
// (2-d, one group, stride and dilation 1, small_conv_applies); false otherwise.
bool try_small_conv2d(const ConvShape& s, const float* x, const float* w, const float* b, float* y);

// The plain loops it is tested against.
void small_conv2d_reference(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y);

}  // namespace pt2web
