// Shared by grid_sampler.cpp (2-d) and grid_sampler_3d.cpp: ATen's mode
// numbering and argument checks.
#pragma once

#include "ops/pool/pool.h"
#include "ops/op_utils.h"
#include "tensor/dispatch.h"

namespace pt2web {

enum class Interpolation : int64_t { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class Padding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

// Rank, batch, last grid dim, non-empty spatial dims, mode ranges (no
// bicubic in 3-d) and dtypes (floating, grid like input); Error(BadInput).
void check_grid_sampler(const OpCall& c, const Tensor& input, const Tensor& grid, int64_t spatial_dims,
                        int64_t mode, int64_t padding);

// The body of grid_sampler_{2,3}d(input, grid, mode, padding, align_corners):
// checks, then sample(TypeTag<T>{}, input, grid, mode, padding, align_corners)
// with T = double for float64 inputs and float otherwise (16-bit inputs are
// computed in float32 and the result converted back).
template <typename Sample>
void run_grid_sampler(OpCall& c, int64_t spatial_dims, const char* op_name, Sample sample) {
  const Tensor& input = c.tensor(0);
  const Tensor& grid = c.tensor(1);
  const int64_t mode = c.int_arg(2), padding = c.int_arg(3);
  const bool align_corners = c.bool_arg(4);
  check_grid_sampler(c, input, grid, spatial_dims, mode, padding);
  const auto interp = static_cast<Interpolation>(mode);
  const auto pad = static_cast<Padding>(padding);
  switch (input.dtype()) {
    case DType::Float64: c.push(sample(TypeTag<double>{}, input, grid, interp, pad, align_corners)); return;
    case DType::Float32: c.push(sample(TypeTag<float>{}, input, grid, interp, pad, align_corners)); return;
    case DType::Float16:
    case DType::BFloat16: {
      Tensor out = sample(TypeTag<float>{}, input.to(DType::Float32), grid.to(DType::Float32), interp, pad,
                          align_corners);
      c.push(out.to(input.dtype()));
      return;
    }
    default: fail_unsupported_dtype(input.dtype(), op_name);
  }
}

}  // namespace pt2web
