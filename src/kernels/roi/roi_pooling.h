// torchvision's region-of-interest pooling on contiguous float/double
// buffers: input [batch, channels, height, width], rois [K, 5] rows of
// (batch index, x1, y1, x2, y2) in input-image coordinates (multiplied by
// spatial_scale to reach the feature map), outputs row-major.
//
// - roi_align: each of pooled_h x pooled_w bins averages a grid of bilinear
//   samples (`clamped_bilinear`); the grid is sampling_ratio^2 points, or
//   ceil(roi size / pooled size) per axis when sampling_ratio <= 0. aligned
//   shifts the box by half a pixel; unaligned boxes are at least 1x1.
// - ps_roi_align: the position-sensitive form: output channel c, bin (i, j)
//   reads input channel (c * pooled_h + i) * pooled_w + j, which is also
//   what channel_mapping records. Always half-pixel aligned.
// - roi_pool: the maximum over each bin of whole pixels (box corners rounded
//   half away from zero, inclusive); argmax is the flat h*width+w index of
//   the maximum in its plane, -1 for an empty bin (whose value is 0).
// - ps_roi_pool: the position-sensitive average over each bin.
//
// Callers check the shapes, and that every roi's batch index (truncated
// toward zero) lies in [0, batch): the kernels do not (torchvision's do not
// either). No errors are raised here.
#pragma once

#include <cstdint>

namespace pt2web {

struct RoiPoolingShape {
  int64_t batch = 0, channels = 0, height = 0, width = 0;
  int64_t num_rois = 0, pooled_h = 1, pooled_w = 1;
};

// output [K, channels, pooled_h, pooled_w].
template <typename T>
void roi_align_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale,
                       int64_t sampling_ratio, bool aligned, T* output);

// output and channel_mapping [K, channels / (pooled_h * pooled_w), pooled_h, pooled_w].
template <typename T>
void ps_roi_align_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale,
                          int64_t sampling_ratio, T* output, int32_t* channel_mapping);

// output and argmax [K, channels, pooled_h, pooled_w].
template <typename T>
void roi_pool_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale, T* output,
                      int32_t* argmax);

// output and channel_mapping [K, channels / (pooled_h * pooled_w), pooled_h, pooled_w].
template <typename T>
void ps_roi_pool_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale, T* output,
                         int32_t* channel_mapping);

}  // namespace pt2web
