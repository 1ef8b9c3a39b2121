// Shared by grid_sampler.cpp (2-d) and grid_sampler_3d.cpp: ATen's mode
// numbering and argument checks.
#pragma once

#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

enum class Interpolation : int64_t { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class Padding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

// Rank, batch, last grid dim, non-empty spatial dims, mode ranges (no
// bicubic in 3-d) and dtypes (floating, grid like input); Error(BadInput).
void check_grid_sampler(const OpCall& c, const Tensor& input, const Tensor& grid, int64_t spatial_dims,
                        int64_t mode, int64_t padding);

void register_grid_sampler_3d_ops(OpTable& t);

}  // namespace pt2web
