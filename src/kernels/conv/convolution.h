// Convolution kernels (convolution.cpp here) used by the convolution ops
// (ops/conv/convolution.cpp). The geometry is normalized to three spatial dims: 1-d
// and 2-d convolutions get leading size-1 dims with a kernel of 1.
//
// Direct convolution is im2col + gemm per batch item and group (float32 2-d:
// gemm on the implicit column matrix of conv_columns.h, no im2col buffer;
// depthwise: a direct kernel); transposed convolution is gemm + col2im (the
// adjoint). float32 runs through
// kernels/gemm (gemm_f32), float64 and int64 through a plain loop; callers
// convert 16-bit floats to float32 and narrower integers to int64 and back.
#pragma once

#include <array>
#include <cstdint>

namespace pt2web {

using ConvDims = std::array<int64_t, 3>;

struct ConvShape {
  int64_t batch = 0;
  int64_t in_channels = 0;
  int64_t out_channels = 0;
  int64_t groups = 1;
  ConvDims input{1, 1, 1};   // spatial sizes of the op's input
  ConvDims output{1, 1, 1};  // spatial sizes of the op's output
  ConvDims kernel{1, 1, 1};
  ConvDims stride{1, 1, 1};
  ConvDims pad{0, 0, 0};  // leading padding; trailing padding only shapes `output`
  ConvDims dilation{1, 1, 1};
};

// y[N, C_out, output] = conv(x[N, C_in, input], w[C_out, C_in/groups, kernel]) + b.
// b may be null. T is float, double or int64_t.
template <typename T>
void conv_forward(const ConvShape& s, const T* x, const T* w, const T* b, T* y);

// Transposed convolution: y[N, C_out, output] from x[N, C_in, input] and
// w[C_in, C_out/groups, kernel]; output positions o = i*stride - pad + k*dilation.
template <typename T>
void conv_transpose_forward(const ConvShape& s, const T* x, const T* w, const T* b, T* y);

}  // namespace pt2web
