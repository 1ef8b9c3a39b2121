// 2-d max pooling of float32 planes whose windows all lie inside the input
// (no padding, no dilation, no partial ceil-mode window): the common
// max_pool2d(k) of CNNs. Values only (no indices); a NaN in a window gives
// NaN, as in ATen. 2x2 windows with stride 2 take a vector path (four
// outputs from two rows of eight inputs); other shapes a plain loop. Planes
// are split across threads. max_pool2d_reference is the loop it is tested
// against.
#pragma once

#include <cstdint>

namespace pt2web {

struct MaxPool2dShape {
  int64_t planes = 0;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
};

// True when every window of `s` lies inside the input (the precondition).
bool max_pool2d_windows_inside(const MaxPool2dShape& s);

void max_pool2d_f32(const MaxPool2dShape& s, const float* in, float* out);
void max_pool2d_reference(const MaxPool2dShape& s, const float* in, float* out);

}  // namespace pt2web
