// Helpers shared by the pooling family (pooling.cpp: max/avg/adaptive pools,
// resample.cpp: upsample_* and pixel_(un)shuffle).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_call.h"
#include "ops/registry.h"
#include "tensor/tensor.h"

namespace pt2web {

// The trailing `rank` spatial dims of an input, padded to three (D, H, W)
// with leading size-1 dims, so that 1-d and 2-d ops share the 3-d loops.
using Dims3 = std::array<int64_t, 3>;
Dims3 to_dims3(const std::vector<int64_t>& spatial, int64_t fill);

// Number of planes (product of the non-spatial dims) of an input whose last
// `rank` dims are spatial.
int64_t plane_count(const Tensor& input, int64_t rank);

// The input's non-spatial dims followed by `spatial`.
Shape with_spatial(const Tensor& input, int64_t rank, const std::vector<int64_t>& spatial);

}  // namespace pt2web
