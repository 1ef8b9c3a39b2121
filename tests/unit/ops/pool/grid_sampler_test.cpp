// grid_sampler_2d (identity grids, padding modes at and beyond the border,
// half-to-even nearest, cubic weights 0.59375 / -0.09375 at t = 0.5, NaN
// grids) and grid_sampler_3d (the same cases through ATen's scalar 3-d path),
// on hand-checkable inputs.
#include "ops/op_test.h"

#include <cmath>
#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

// An [1, H, W, 2] grid with the given (x, y) pairs, row-major over (H, W).
Tensor grid_of(int64_t h, int64_t w, const std::vector<double>& xy, DType dtype = DType::Float32) {
  return make({1, h, w, 2}, xy, dtype);
}

Tensor sample(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding, bool align) {
  return call1("aten::grid_sampler_2d.default", {tv(input), tv(grid), iv(mode), iv(padding), bv(align)});
}

}  // namespace

TEST_CASE("grid_sampler_2d: identity grids return the input in every mode", "[pool]") {
  const Tensor input = make({1, 1, 2, 3}, {1, 2, 3, 4, 5, 6});
  // align_corners=True: x in {-1, 0, 1}, y in {-1, 1} hit the pixel centers.
  const Tensor aligned = grid_of(2, 3, {-1, -1, 0, -1, 1, -1, -1, 1, 0, 1, 1, 1});
  // align_corners=False: centers at (2i + 1) / size - 1.
  const double third = 1.0 / 3.0;
  const Tensor unaligned =
      grid_of(2, 3, {-1 + third, -0.5, 0, -0.5, 1 - third, -0.5, -1 + third, 0.5, 0, 0.5, 1 - third, 0.5});
  for (int64_t mode = 0; mode < 3; ++mode) {
    for (int64_t padding = 0; padding < 3; ++padding) {
      check_values(sample(input, aligned, mode, padding, true), {1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}, 1e-5);
      check_values(sample(input, unaligned, mode, padding, false), {1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}, 1e-5);
    }
  }
}

TEST_CASE("grid_sampler_2d: bilinear at the corner and the center, per padding mode", "[pool]") {
  const Tensor input = make({1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor corner = grid_of(1, 1, {-1, -1});
  // Without align_corners (-1, -1) is the pixel edge (-0.5, -0.5): a quarter
  // of pixel (0, 0) with zeros; border and reflection land on pixel (0, 0).
  check_values(sample(input, corner, 0, 0, false), {1, 1, 1, 1}, {0.25});
  check_values(sample(input, corner, 0, 1, false), {1, 1, 1, 1}, {1});
  check_values(sample(input, corner, 0, 2, false), {1, 1, 1, 1}, {1});
  check_values(sample(input, corner, 0, 0, true), {1, 1, 1, 1}, {1});
  const Tensor center = grid_of(1, 1, {0, 0});
  check_values(sample(input, center, 0, 0, false), {1, 1, 1, 1}, {2.5});
  check_values(sample(input, center, 0, 0, true), {1, 1, 1, 1}, {2.5});
}

TEST_CASE("grid_sampler_2d: beyond the border and half-to-even nearest", "[pool]") {
  // W = 3, H = 1, align_corners: x = g + 1, y = 0.
  const Tensor row = make({1, 1, 1, 3}, {10, 20, 30});
  const Tensor beyond = grid_of(1, 1, {1.5, 0});  // x = 2.5
  check_values(sample(row, beyond, 0, 0, true), {1, 1, 1, 1}, {15});  // half of pixel 2
  check_values(sample(row, beyond, 0, 1, true), {1, 1, 1, 1}, {30});  // clipped to 2
  check_values(sample(row, beyond, 0, 2, true), {1, 1, 1, 1}, {25});  // reflected to 1.5
  const Tensor halves = grid_of(1, 2, {-0.5, 0, 0.5, 0});             // x = 0.5 and 1.5
  check_values(sample(row, halves, 1, 0, true), {1, 1, 1, 2}, {10, 30});
  // Far outside with zeros padding: nothing is read.
  check_values(sample(row, grid_of(1, 1, {7, 0}), 1, 0, true), {1, 1, 1, 1}, {0});
}

TEST_CASE("grid_sampler_2d: bicubic weights and tap padding", "[pool]") {
  // At t = 0.5 the weights are -0.09375, 0.59375, 0.59375, -0.09375.
  const Tensor row = make({1, 1, 1, 4}, {0, 10, 0, 0});
  check_values(sample(row, grid_of(1, 1, {0, 0}), 2, 0, true), {1, 1, 1, 1}, {5.9375});
  const Tensor ramp = make({1, 1, 1, 4}, {0, 10, 20, 30});
  check_values(sample(ramp, grid_of(1, 1, {0, 0}), 2, 0, true), {1, 1, 1, 1}, {15});
  // W = 2, x = 0.5: taps -1, 0, 1, 2 read 0, 1, 3, 0 (zeros), 1, 1, 3, 3
  // (border) and 3, 1, 3, 1 (reflection).
  const Tensor two = make({1, 1, 1, 2}, {1, 3});
  const Tensor mid = grid_of(1, 1, {0, 0});
  check_values(sample(two, mid, 2, 0, true), {1, 1, 1, 1}, {2.375});
  check_values(sample(two, mid, 2, 1, true), {1, 1, 1, 1}, {2.0});
  check_values(sample(two, mid, 2, 2, true), {1, 1, 1, 1}, {2.0});
}

TEST_CASE("grid_sampler_2d: NaN grids, channels, strided grids, dtypes and errors", "[pool]") {
  const Tensor input = make({1, 2, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40});
  const Tensor nan_grid = grid_of(1, 1, {kNaN, kNaN});
  check_values(sample(input, nan_grid, 0, 1, true), {1, 2, 1, 1}, {1, 10});  // clipping sends NaN to 0
  check_values(sample(input, nan_grid, 0, 0, true), {1, 2, 1, 1}, {kNaN, kNaN});
  // A grid stored as [N, 2, H, W] and permuted to [N, H, W, 2].
  const Tensor planar = make({1, 2, 1, 2}, {-1, 1, -1, 1});  // x plane, then y plane
  const Tensor strided = permute_view(planar, {0, 2, 3, 1});
  check_values(sample(input, strided, 0, 0, true), {1, 2, 1, 2}, {1, 4, 10, 40});
  // float64 and float16 (computed in float32) give the same center value.
  check_values(sample(input.to(DType::Float64), grid_of(1, 1, {0, 0}, DType::Float64), 0, 0, false), {1, 2, 1, 1},
               {2.5, 25});
  Tensor half = sample(input.to(DType::Float16), grid_of(1, 1, {0, 0}, DType::Float16), 0, 0, false);
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {1, 2, 1, 1}, {2.5, 25});
  // Empty output grid.
  check_values(sample(input, make({1, 0, 3, 2}, {}), 0, 0, false), {1, 2, 0, 3}, {});
  const Tensor g = grid_of(1, 1, {0, 0});
  CHECK(error_code_of("aten::grid_sampler_2d.default", {tv(make({2, 2, 2}, std::vector<double>(8, 0))), tv(g), iv(0), iv(0),
                                                   bv(false)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::grid_sampler_2d.default", {tv(input), tv(make({1, 1, 1, 3}, {0, 0, 0})), iv(0), iv(0),
                                                   bv(false)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::grid_sampler_2d.default", {tv(input), tv(g.to(DType::Float64)), iv(0), iv(0), bv(false)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::grid_sampler_2d.default", {tv(input.to(DType::Int64)), tv(g), iv(0), iv(0), bv(false)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("grid_sampler_3d: identity, center, padding, NaN and errors", "[pool]") {
  std::vector<double> values;
  for (int i = 1; i <= 8; ++i) values.push_back(i);
  const Tensor input = make({1, 1, 2, 2, 2}, values);
  std::vector<double> corners;  // (x, y, z) over (d, h, w), row-major
  for (int z : {-1, 1})
    for (int y : {-1, 1})
      for (int x : {-1, 1}) corners.insert(corners.end(), {double(x), double(y), double(z)});
  const Tensor identity = make({1, 2, 2, 2, 3}, corners);
  auto sample3 = [](const Tensor& in, const Tensor& g, int64_t mode, int64_t padding, bool align) {
    return call1("aten::grid_sampler_3d.default", {tv(in), tv(g), iv(mode), iv(padding), bv(align)});
  };
  for (int64_t mode = 0; mode < 2; ++mode)
    for (int64_t padding = 0; padding < 3; ++padding)
      check_values(sample3(input, identity, mode, padding, true), {1, 1, 2, 2, 2}, values);
  const Tensor center = make({1, 1, 1, 1, 3}, {0, 0, 0});
  check_values(sample3(input, center, 0, 0, false), {1, 1, 1, 1, 1}, {4.5});
  check_values(sample3(input, center, 0, 0, true), {1, 1, 1, 1, 1}, {4.5});
  // (-1, -1, -1) without align_corners is the corner (-0.5, -0.5, -0.5): an
  // eighth of voxel 0 with zeros, all of it with border.
  const Tensor corner = make({1, 1, 1, 1, 3}, {-1, -1, -1});
  check_values(sample3(input, corner, 0, 0, false), {1, 1, 1, 1, 1}, {0.125});
  check_values(sample3(input, corner, 0, 1, false), {1, 1, 1, 1, 1}, {1});
  // The scalar 3-d path clips NaN to the last voxel; zeros padding reads nothing.
  const Tensor nan_grid = make({1, 1, 1, 1, 3}, {kNaN, kNaN, kNaN});
  check_values(sample3(input, nan_grid, 0, 1, true), {1, 1, 1, 1, 1}, {8});
  check_values(sample3(input, nan_grid, 0, 0, true), {1, 1, 1, 1, 1}, {0});
  // A row of three along x: reflection of 2.5 is 1.5; nearest rounds half to even.
  const Tensor row = make({1, 1, 1, 1, 3}, {10, 20, 30});
  check_values(sample3(row, make({1, 1, 1, 1, 3}, {1.5, 0, 0}), 0, 2, true), {1, 1, 1, 1, 1}, {25});
  check_values(sample3(row, make({1, 1, 1, 2, 3}, {-0.5, 0, 0, 0.5, 0, 0}), 1, 0, true), {1, 1, 1, 1, 2}, {10, 30});
  Tensor half = sample3(input.to(DType::Float16), center.to(DType::Float16), 0, 0, false);
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {1, 1, 1, 1, 1}, {4.5});
  CHECK(error_code_of("aten::grid_sampler_3d.default", {tv(input), tv(center), iv(2), iv(0), bv(false)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::grid_sampler_3d.default", {tv(input), tv(make({1, 1, 1, 2}, {0, 0})), iv(0), iv(0), bv(false)}) ==
        ErrorCode::BadInput);
}
