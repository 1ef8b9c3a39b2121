// The column matrix of a deformable 2-d convolution (torchvision's
// deform_conv2d) for one image, on contiguous float/double buffers:
// cols[channels * kernel_h * kernel_w, out_h * out_w], row (c, i, j) holding
// input channel c sampled at kernel tap (i, j) moved by a learned offset:
//   y = oy * stride_h - pad_h + i * dilation_h + offset_y
//   x = ox * stride_w - pad_w + j * dilation_w + offset_x
// read with `zero_padded_bilinear` and multiplied by the mask when one is
// given. The channels form offset_groups equal groups; group g reads
// offset rows g * 2 * kernel_h * kernel_w + 2 * (i * kernel_w + j) (y, then x)
// and mask row g * kernel_h * kernel_w + i * kernel_w + j, each a plane of
// out_h x out_w. No errors: callers check the shapes.
#pragma once

#include <cstdint>

#include "kernels/conv/im2col.h"

namespace pt2web {

template <typename T>
void deformable_im2col(const Im2colShape& s, int64_t offset_groups, const T* image, const T* offset, const T* mask,
                       T* cols);

}  // namespace pt2web
