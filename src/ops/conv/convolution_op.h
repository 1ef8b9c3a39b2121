// The checked convolution entry point shared by the convolution ops
// (convolution.cpp) and the fused convolution (fused_convolution.cpp):
// ATen's argument checks and wording, then the kernels of convolution.h.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_call.h"

namespace pt2web {

struct ConvArgs {
  std::vector<int64_t> stride, pad_l, pad_r, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 1;
};

// Expands and checks the per-dim lists (one value or one per spatial dim).
// Throws Error(BadInput) naming the argument.
ConvArgs conv_args(const OpCall& c, int64_t dims, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation, bool transposed,
                   const std::vector<int64_t>& output_padding, int64_t groups);

// The convolution of a batched input [N, C, spatial...] (1 to 3 spatial
// dims) in the input's dtype. Throws Error(BadInput) for shapes ATen rejects.
Tensor convolution(const OpCall& c, const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvArgs& a);

}  // namespace pt2web
