// The column matrix of a 2-d convolution (the im2col matrix, see im2col.h)
// as a GEMM operand that packs its blocks straight from the input images:
// no im2col buffer is written or read back. Rows are (channel, kh, kw) as in
// im2col; columns are (image, oh, ow) over `batch` images side by side, so a
// product of the weight [C_out, rows] by it is the convolution of the whole
// batch as a [C_out, batch*oh*ow] matrix.
//
// Ownership: borrows the images; the object must outlive the gemm_f32 call.
// Errors: none (the geometry is checked by the convolution op).
#pragma once

#include <cstdint>

#include "kernels/conv/im2col.h"
#include "kernels/gemm/gemm.h"

namespace pt2web {

struct ConvColumnsF32 {
  const float* images = nullptr;  // image n's channel c at images + n*image_stride + c*in_h*in_w
  int64_t image_stride = 0;
  int64_t batch = 1;
  Im2colShape shape;  // shape.channels: the channels the rows cover (one group's)

  int64_t rows() const { return shape.channels * shape.kernel_h * shape.kernel_w; }
  int64_t columns() const { return batch * shape.out_h * shape.out_w; }
  // The operand for gemm_f32 (points at this object).
  PanelSourceF32 source() const;
};

}  // namespace pt2web
