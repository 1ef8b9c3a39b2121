// im2col for 2-d convolutions: the column matrix cols[channels*kh*kw, oh*ow]
// of one image, row (c, i, j) holding input channel c shifted by kernel tap
// (i, j), zeros where the tap falls into the padding. Each output row is
// filled by clipping its column range once (a block copy when the stride
// is 1) instead of testing every element.
#pragma once

#include <cstdint>

namespace pt2web {

struct Im2colShape {
  int64_t channels = 0;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dilation_h = 1,
          dilation_w = 1;
};

void im2col_2d_f32(const Im2colShape& s, const float* image, float* cols);

// The output columns [begin, end) of one row whose kernel column kw reads
// inside the input row: input column ow*stride_w - pad_w + kw*dilation_w.
struct OutputColumnRange {
  int64_t begin = 0, end = 0;
  int64_t shift = 0;  // input column of output column ow: ow*stride_w + shift
};
OutputColumnRange inside_columns(const Im2colShape& s, int64_t kw);

}  // namespace pt2web
