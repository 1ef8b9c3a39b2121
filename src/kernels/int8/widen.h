// Widening of quantized values to the int16 operands of dot_gemm_s16, with
// their zero point subtracted, so that a padded position (0.0 in torch's
// float graph, the zero point in int8) reads as 0.
//
// widen_rows: rows of int8/uint8 values (row stride ld) minus one zero point
// per row (weights: per output channel) or one for all, written dst_ld apart
// (cols when -1) with zeros from cols up to dst_ld.
// widen_padded_plane: one channel with its zero border, for depthwise_s16.
// im2col_s16: the patches of one image and group of a 2-d convolution as rows
// [P = OH*OW, K = C*KH*KW] (k ordered c, kh, kw like the weight), zero outside
// the input. Plain loops; never allocate.
#pragma once

#include <cstdint>

namespace pt2web {

template <typename Q>
void widen_rows(const Q* src, int64_t rows, int64_t cols, int64_t ld, const int32_t* zero_points, bool per_row,
                int16_t* dst, int64_t dst_ld = -1);

struct ConvGeometry {
  int64_t channels = 0, height = 0, width = 0;  // of the input group
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dilation_h = 1,
          dilation_w = 1;
  int64_t out_h = 0, out_w = 0;
};

// One plane (height x width) widened into (height + 2*pad_h) rows of
// (width + 2*pad_w) values, zero in the border.
template <typename Q>
void widen_padded_plane(const Q* plane, int64_t height, int64_t width, int64_t pad_h, int64_t pad_w,
                        int32_t zero_point, int16_t* padded);

template <typename Q>
void im2col_s16(const Q* image, const ConvGeometry& g, int32_t zero_point, int16_t* rows);

}  // namespace pt2web
