// Helpers shared by the normalization operators (normalization.cpp for the
// batch-norm family, layer_norm.cpp for layer/group/rms norm).
//
// Statistics are accumulated in double (ATen's CPU accumulate type for float
// inputs); 16-bit float inputs are normalized in float and rounded once.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ops/op_call.h"
#include "ops/registry.h"
#include "tensor/tensor.h"

namespace pt2web {

// Mean and biased variance for each group of a contiguous tensor viewed as
// [blocks, inner]: block b belongs to group group_of(b).
struct GroupMoments {
  std::vector<double> mean;
  std::vector<double> var;  // biased (divided by the element count)
  std::vector<int64_t> count;
};
GroupMoments grouped_moments(const Tensor& x, int64_t inner, int64_t groups,
                             const std::function<int64_t(int64_t)>& group_of);

// out[b, i] = x[b, i] * scale[b] + shift[b] for x contiguous viewed as
// [blocks, inner]; the result has x's dtype and shape.
Tensor block_affine(const Tensor& x, int64_t inner, const std::vector<double>& scale,
                    const std::vector<double>& shift);

// A per-channel parameter read as doubles, or `count` copies of `fill` when
// the tensor is undefined. Throws BadInput (ATen's wording) when the element
// count differs.
std::vector<double> param_values(const OpCall& c, const Tensor& t, int64_t count, double fill, const char* name);

// A new tensor of `dtype` and `shape` holding `values`.
Tensor tensor_from_doubles(const std::vector<double>& values, const Shape& shape, DType dtype);

// The dtype of saved statistics (mean, rstd): float32 when a 16-bit float
// input comes with float32 parameters (ATen's "mixed type"), else the input's.
DType stats_dtype(const Tensor& input, const std::vector<Tensor>& params);

// Throws BadInput unless the input has a floating dtype (the norms are not
// defined for integer or bool tensors in ATen).
void require_floating_input(const OpCall& c, const Tensor& input);

}  // namespace pt2web
