// Direct 2-d convolution for few channels on small images (small_conv.cpp),
// and stride-1 transposed convolution through it. A zero-bordered copy of the image
// replaces im2col and GEMM packing, whose fixed costs dominate at these
// sizes; each step accumulates four output channels times two runs of four
// adjacent outputs in registers over every input channel and tap. The copy
// is split into `stride_w` column phases, so that a run of four outputs
// reads four adjacent floats for every tap at any stride and dilation.
// Owns nothing but its per-thread scratch; raises no errors (callers check
// the geometry with small_conv_applies, or go through try_small_conv2d /
// try_small_conv_transpose2d, which check it themselves).
#pragma once

#include <cstdint>

#include "kernels/conv/convolution.h"

namespace pt2web {

struct SmallConvShape {
  int64_t in_channels = 0, out_channels = 0, groups = 1;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t kernel_h = 1, kernel_w = 1, pad_h = 0, pad_w = 0;  // leading padding
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  // Input element (r, c) sits at (r * in_step_h, c * in_step_w) before the
  // padding (zeros between): 1 for a convolution, the stride of the
  // transposed convolution it computes otherwise.
  int64_t in_step_h = 1, in_step_w = 1;
};

// Whether the direct kernel is the faster choice for this geometry (small
// output planes, few input channels per group times taps).
bool small_conv_applies(const SmallConvShape& s);

// y[out_channels, out_h, out_w] = conv(x[in_channels, in_h, in_w],
// w[out_channels, in_channels/groups, kernel_h, kernel_w]) + b (b may be null). One image,
// its output channels split across threads in blocks of four.
void small_conv2d_f32(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y);

// conv_forward's and conv_transpose_forward's entries: run a float32 2-d
// convolution (transposed, stride 1 only: as a direct convolution with the
// flipped kernel) through the direct kernel, image by image (split across
// threads), when its geometry fits; false otherwise.
bool try_small_conv2d(const ConvShape& s, const float* x, const float* w, const float* b, float* y);
bool try_small_conv_transpose2d(const ConvShape& s, const float* x, const float* w, const float* b, float* y);

// The plain loops it is tested against.
void small_conv2d_reference(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y);

}  // namespace pt2web
