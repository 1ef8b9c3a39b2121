// The Core ATen ops added late, on hand-checkable inputs: grid_sampler_2d
// (identity grids, padding modes at and beyond the border, half-to-even
// nearest, cubic weights 0.59375 / -0.09375 at t = 0.5, NaN grids),
// grid_sampler_3d (the same cases through ATen's scalar 3-d path),
// im2col / col2im (block layout, overlap counts), _cdist_forward /
// _pdist_forward (3-4-5 triangles for every p, batch broadcasting, the
// matrix-product path), _embedding_bag (all four outputs for sum, mean, max,
// padding_idx, include_last_offset, per-sample weights) and atan2.out.
#include "ops_conv_pool_norm_util.h"

#include <cmath>
#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::test_cpn;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// An [1, H, W, 2] grid with the given (x, y) pairs, row-major over (H, W).
Tensor grid_of(int64_t h, int64_t w, const std::vector<double>& xy, DType dtype = DType::Float32) {
  return make({1, h, w, 2}, xy, dtype);
}

Tensor sample(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding, bool align) {
  return call("aten::grid_sampler_2d.default", {T(input), T(grid), I(mode), I(padding), B(align)});
}

std::vector<Tensor> bag(const std::string& name, std::vector<Value> args) {
  std::vector<Value> out = call_all(name, std::move(args));
  REQUIRE(out.size() == 4);
  return {out[0].tensor, out[1].tensor, out[2].tensor, out[3].tensor};
}

}  // namespace

// ---------------------------------------------------------------- grid_sampler_2d

TEST_CASE("grid_sampler_2d: identity grids return the input in every mode", "[core_missing]") {
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

TEST_CASE("grid_sampler_2d: bilinear at the corner and the center, per padding mode", "[core_missing]") {
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

TEST_CASE("grid_sampler_2d: beyond the border and half-to-even nearest", "[core_missing]") {
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

TEST_CASE("grid_sampler_2d: bicubic weights and tap padding", "[core_missing]") {
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

TEST_CASE("grid_sampler_2d: NaN grids, channels, strided grids, dtypes and errors", "[core_missing]") {
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
  CHECK(error_of("aten::grid_sampler_2d.default", {T(make({2, 2, 2}, std::vector<double>(8, 0))), T(g), I(0), I(0),
                                                   B(false)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::grid_sampler_2d.default", {T(input), T(make({1, 1, 1, 3}, {0, 0, 0})), I(0), I(0),
                                                   B(false)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::grid_sampler_2d.default", {T(input), T(g.to(DType::Float64)), I(0), I(0), B(false)}) ==
        ErrorCode::BadInput);
  CHECK(error_of("aten::grid_sampler_2d.default", {T(input.to(DType::Int64)), T(g), I(0), I(0), B(false)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("grid_sampler_3d: identity, center, padding, NaN and errors", "[core_missing]") {
  std::vector<double> values;
  for (int i = 1; i <= 8; ++i) values.push_back(i);
  const Tensor input = make({1, 1, 2, 2, 2}, values);
  std::vector<double> corners;  // (x, y, z) over (d, h, w), row-major
  for (int z : {-1, 1})
    for (int y : {-1, 1})
      for (int x : {-1, 1}) corners.insert(corners.end(), {double(x), double(y), double(z)});
  const Tensor identity = make({1, 2, 2, 2, 3}, corners);
  auto sample3 = [](const Tensor& in, const Tensor& g, int64_t mode, int64_t padding, bool align) {
    return call("aten::grid_sampler_3d.default", {T(in), T(g), I(mode), I(padding), B(align)});
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
  CHECK(error_of("aten::grid_sampler_3d.default", {T(input), T(center), I(2), I(0), B(false)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::grid_sampler_3d.default", {T(input), T(make({1, 1, 1, 2}, {0, 0})), I(0), I(0), B(false)}) ==
        ErrorCode::BadInput);
}

// ---------------------------------------------------------------- im2col / col2im

TEST_CASE("im2col lays out 2x2 blocks of a 3x3 image", "[core_missing]") {
  const Tensor image = make({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Tensor cols = call("aten::im2col.default", {T(image), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})});
  check_values(cols, {1, 4, 4}, {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9});
  // Unbatched, with padding 1 and stride 2: blocks at (-1, -1), (-1, 1), (1, -1), (1, 1).
  const Tensor padded = call("aten::im2col.default", {T(make({1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})), L({2, 2}),
                                                      L({1, 1}), L({1, 1}), L({2, 2})});
  check_values(padded, {4, 4}, {0, 0, 0, 5, 0, 0, 4, 6, 0, 2, 0, 8, 1, 3, 7, 9});
  // Dilation 2: one block made of the corners.
  const Tensor dilated = call("aten::im2col.default", {T(image), L({2, 2}), L({2, 2}), L({0, 0}), L({1, 1})});
  check_values(dilated, {1, 4, 1}, {1, 3, 7, 9});
  CHECK(error_of("aten::im2col.default", {T(make({1, 1, 1, 1}, {1})), L({2, 2}), L({1, 1}), L({0, 0}),
                                          L({1, 1})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::im2col.default", {T(image.to(DType::Int64)), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}) ==
        ErrorCode::BadInput);
}

TEST_CASE("col2im of im2col counts the blocks covering each pixel", "[core_missing]") {
  const Tensor ones = make({2, 1, 3, 3}, std::vector<double>(18, 1.0));
  const Tensor cols = call("aten::im2col.default", {T(ones), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})});
  const Tensor folded =
      call("aten::col2im.default", {T(cols), L({3, 3}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})});
  check_values(folded, {2, 1, 3, 3}, {1, 2, 1, 2, 4, 2, 1, 2, 1, 1, 2, 1, 2, 4, 2, 1, 2, 1});
  // Unbatched [C*kh*kw, L]: a 3x3 kernel with padding 1 over a 2x2 image
  // covers every pixel from each of the 4 blocks.
  const Tensor unbatched =
      call("aten::col2im.default",
           {T(make({9, 4}, std::vector<double>(36, 1.0))), L({2, 2}), L({3, 3}), L({1, 1}), L({1, 1}), L({1, 1})});
  check_values(unbatched, {1, 2, 2}, {4, 4, 4, 4});
  // float16 sums in float16; bool sums as "or".
  const Tensor half = call("aten::col2im.default", {T(cols.to(DType::Float16)), L({3, 3}), L({2, 2}), L({1, 1}),
                                                    L({0, 0}), L({1, 1})});
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {2, 1, 3, 3}, {1, 2, 1, 2, 4, 2, 1, 2, 1, 1, 2, 1, 2, 4, 2, 1, 2, 1});
  const Tensor flags = call("aten::col2im.default", {T(cols.to(DType::Bool)), L({3, 3}), L({2, 2}), L({1, 1}),
                                                     L({0, 0}), L({1, 1})});
  check_values(flags, {2, 1, 3, 3}, std::vector<double>(18, 1.0));
  // Wrong number of blocks, channels not divisible by the kernel, integer input.
  CHECK(error_of("aten::col2im.default", {T(cols), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}) ==
        ErrorCode::BadInput);
  CHECK(error_of("aten::col2im.default", {T(make({1, 3, 4}, std::vector<double>(12, 0))), L({3, 3}), L({2, 2}),
                                          L({1, 1}), L({0, 0}), L({1, 1})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::col2im.default", {T(cols.to(DType::Int64)), L({3, 3}), L({2, 2}), L({1, 1}), L({0, 0}),
                                          L({1, 1})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::col2im.default", {T(cols), L({3, 3}), L({2, 2}), L({1, 1}), L({0, 0}), L({0, 1})}) ==
        ErrorCode::BadInput);
}

// ---------------------------------------------------------------- cdist / pdist

TEST_CASE("_cdist_forward: every p on 3-4-5 triangles", "[core_missing]") {
  const Tensor x1 = make({2, 2}, {0, 0, 1, 1});
  const Tensor x2 = make({1, 2}, {3, 4});
  auto cdist = [&](double p) { return call("aten::_cdist_forward.default", {T(x1), T(x2), F(p), N()}); };
  check_values(cdist(2), {2, 1}, {5, std::sqrt(13.0)});
  check_values(cdist(1), {2, 1}, {7, 5});
  check_values(cdist(INFINITY), {2, 1}, {4, 3});
  check_values(cdist(0), {2, 1}, {2, 2});
  check_values(cdist(3), {2, 1}, {std::cbrt(91.0), std::cbrt(35.0)}, 1e-5);
  // compute_mode 1 forces the matrix-product form; 2 forbids it.
  check_values(call("aten::_cdist_forward.default", {T(x1), T(x2), F(2), I(1)}), {2, 1}, {5, std::sqrt(13.0)}, 1e-5);
  check_values(call("aten::_cdist_forward.default", {T(x1), T(x2), F(2), I(2)}), {2, 1}, {5, std::sqrt(13.0)});
  // NaN coordinates give NaN distances.
  check_values(call("aten::_cdist_forward.default", {T(make({1, 2}, {kNaN, 0})), T(x2), F(2), N()}), {1, 1}, {kNaN});
}

TEST_CASE("_cdist_forward: batch broadcasting, empty shapes, dtypes and errors", "[core_missing]") {
  const Tensor a = make({2, 1, 2}, {0, 0, 6, 8});
  const Tensor b = make({1, 2}, {0, 0});  // no batch dims: broadcast against a's
  check_values(call("aten::_cdist_forward.default", {T(a), T(b), F(2), N()}), {2, 1, 1}, {0, 10});
  const Tensor c3 = make({1, 3, 2}, {3, 4, 0, 0, 6, 8});
  check_values(call("aten::_cdist_forward.default", {T(a), T(c3), F(2), N()}), {2, 1, 3}, {5, 0, 10, 5, 10, 0});
  // Rows without columns are at distance 0; no rows give an empty result.
  check_values(call("aten::_cdist_forward.default", {T(make({2, 0}, {})), T(make({3, 0}, {})), F(2), N()}), {2, 3},
               {0, 0, 0, 0, 0, 0});
  check_values(call("aten::_cdist_forward.default", {T(make({0, 2}, {})), T(b), F(2), N()}), {0, 1}, {});
  // More than 25 rows take the matrix-product path by default.
  std::vector<double> rows;
  for (int i = 0; i < 30; ++i) rows.insert(rows.end(), {3.0 * i, 4.0 * i});
  const Tensor many = call("aten::_cdist_forward.default", {T(make({30, 2}, rows)), T(b), F(2), N()});
  REQUIRE(many.sizes() == Shape{30, 1});
  CHECK(many.item_as_double(29) == Approx(145.0).epsilon(1e-6));
  const Tensor d = call("aten::_cdist_forward.default", {T(a.to(DType::Float64)), T(b.to(DType::Float64)), F(2), N()});
  CHECK(d.dtype() == DType::Float64);
  CHECK(error_of("aten::_cdist_forward.default", {T(make({2}, {0, 0})), T(b), F(2), N()}) == ErrorCode::BadInput);
  CHECK(error_of("aten::_cdist_forward.default", {T(make({1, 3}, {0, 0, 0})), T(b), F(2), N()}) ==
        ErrorCode::BadInput);
  CHECK(error_of("aten::_cdist_forward.default", {T(b.to(DType::Int64)), T(b), F(2), N()}) == ErrorCode::BadInput);
  CHECK(error_of("aten::_cdist_forward.default", {T(b), T(b), F(-1), N()}) == ErrorCode::BadInput);
  CHECK(error_of("aten::_cdist_forward.default", {T(b), T(b), F(2), I(3)}) == ErrorCode::BadInput);
}

TEST_CASE("_pdist_forward: upper-triangle pairs in row-major order", "[core_missing]") {
  const Tensor x = make({3, 2}, {0, 0, 3, 4, 6, 8});
  check_values(call("aten::_pdist_forward.default", {T(x)}), {3}, {5, 10, 5});
  check_values(call("aten::_pdist_forward.default", {T(x), F(1)}), {3}, {7, 14, 7});
  check_values(call("aten::_pdist_forward.default", {T(x), F(INFINITY)}), {3}, {4, 8, 4});
  check_values(call("aten::_pdist_forward.default", {T(x), F(0)}), {3}, {2, 2, 2});
  check_values(call("aten::_pdist_forward.default", {T(make({1, 2}, {1, 2}))}), {0}, {});
  check_values(call("aten::_pdist_forward.default", {T(make({3, 0}, {}))}), {3}, {0, 0, 0});
  CHECK(error_of("aten::_pdist_forward.default", {T(make({3}, {0, 1, 2}))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::_pdist_forward.default", {T(x.to(DType::Int32))}) == ErrorCode::BadInput);
}

// ---------------------------------------------------------------- embedding_bag

namespace {

const Tensor& bag_weight() {
  static const Tensor w = make({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  return w;
}

// Bags {0, 2}, {} and {1, 3, 3}.
Tensor bag_indices() { return make({5}, {0, 2, 1, 3, 3}, DType::Int64); }
Tensor bag_offsets() { return make({3}, {0, 2, 2}, DType::Int64); }

}  // namespace

TEST_CASE("_embedding_bag sum: fast path leaves offset2bag empty", "[core_missing]") {
  auto r = bag("aten::_embedding_bag.default", {T(bag_weight()), T(bag_indices()), T(bag_offsets())});
  check_values(r[0], {3, 2}, {6, 8, 0, 0, 17, 20});
  check_values(r[1], {0}, {});
  check_values(r[2], {3}, {0, 0, 0});
  check_values(r[3], {3}, {0, 0, 0});
  CHECK(r[1].dtype() == DType::Int64);
  // float64 weights take the slow path, which fills offset2bag.
  auto d = bag("aten::_embedding_bag.default",
               {T(bag_weight().to(DType::Float64)), T(bag_indices()), T(bag_offsets())});
  check_values(d[0], {3, 2}, {6, 8, 0, 0, 17, 20});
  check_values(d[1], {5}, {0, 0, 2, 2, 2});
  // Per-sample weights scale each row.
  auto s = bag("aten::_embedding_bag.default", {T(bag_weight()), T(bag_indices()), T(bag_offsets()), B(false), I(0),
                                                B(false), T(make({5}, {1, 0.5, 1, 1, 2}))});
  check_values(s[0], {3, 2}, {3.5, 5, 0, 0, 24, 28});
}

TEST_CASE("_embedding_bag mean and max: all four outputs", "[core_missing]") {
  auto mean = bag("aten::_embedding_bag.default",
                  {T(bag_weight()), T(bag_indices()), T(bag_offsets()), B(false), I(1)});
  check_values(mean[0], {3, 2}, {3, 4, 0, 0, 17.0 / 3, 20.0 / 3});
  check_values(mean[1], {5}, {0, 0, 2, 2, 2});
  check_values(mean[2], {3}, {2, 0, 3});
  check_values(mean[3], {3}, {2, 0, 3});
  auto max = bag("aten::_embedding_bag.default",
                 {T(bag_weight()), T(bag_indices()), T(bag_offsets()), B(false), I(2)});
  check_values(max[0], {3, 2}, {5, 6, 0, 0, 7, 8});
  check_values(max[1], {5}, {0, 0, 2, 2, 2});
  check_values(max[2], {3}, {2, 0, 3});
  check_values(max[3], {3, 2}, {2, 2, 0, 0, 3, 3});
}

TEST_CASE("_embedding_bag padding_idx, include_last_offset, index dtypes and overloads", "[core_missing]") {
  // padding_idx 3 drops both 3s from bag 2 and from its size.
  auto padded = bag("aten::_embedding_bag.default", {T(bag_weight()), T(bag_indices()), T(bag_offsets()), B(false),
                                                     I(1), B(false), N(), B(false), I(3)});
  check_values(padded[0], {3, 2}, {3, 4, 0, 0, 3, 4});
  check_values(padded[2], {3}, {2, 0, 1});
  // include_last_offset: offsets [0, 2, 5] describe two bags.
  const Tensor last = make({3}, {0, 2, 5}, DType::Int64);
  auto two = bag("aten::_embedding_bag.default",
                 {T(bag_weight()), T(bag_indices()), T(last), B(false), I(0), B(false), N(), B(true)});
  check_values(two[0], {2, 2}, {6, 8, 17, 20});
  check_values(two[2], {2}, {0, 0});
  // offsets[-1] < len(indices): float32 (fast path) stops the last bag at
  // offsets[-1] for sum and mean; float64 runs it to the end. bag_size counts
  // to the end either way.
  const Tensor short_last = make({3}, {0, 2, 3}, DType::Int64);
  auto mean_fast = bag("aten::_embedding_bag.default",
                       {T(bag_weight()), T(bag_indices()), T(short_last), B(false), I(1), B(false), N(), B(true)});
  check_values(mean_fast[0], {2, 2}, {3, 4, 1, 4.0 / 3});
  check_values(mean_fast[1], {5}, {0, 0, 1, 1, 1});
  check_values(mean_fast[2], {2}, {2, 3});
  auto mean_slow = bag("aten::_embedding_bag.default", {T(bag_weight().to(DType::Float64)), T(bag_indices()),
                                                        T(short_last), B(false), I(1), B(false), N(), B(true)});
  check_values(mean_slow[0], {2, 2}, {3, 4, 17.0 / 3, 20.0 / 3});
  // The forward-only form shapes sum's bag_size like offsets.
  auto fwd = bag("aten::_embedding_bag_forward_only.default",
                 {T(bag_weight()), T(bag_indices()), T(last), B(false), I(0), B(false), N(), B(true)});
  check_values(fwd[0], {2, 2}, {6, 8, 17, 20});
  check_values(fwd[2], {3}, {0, 0, 0});
  // int32 indices and offsets give int32 bookkeeping outputs.
  auto i32 = bag("aten::_embedding_bag.default", {T(bag_weight()), T(bag_indices().to(DType::Int32)),
                                                  T(bag_offsets().to(DType::Int32)), B(false), I(1)});
  CHECK(i32[1].dtype() == DType::Int32);
  CHECK(i32[2].dtype() == DType::Int32);
  check_values(i32[0], {3, 2}, {3, 4, 0, 0, 17.0 / 3, 20.0 / 3});
  // embedding_bag.padding_idx wraps a negative padding_idx (-1 -> 3).
  auto composite = bag("aten::embedding_bag.padding_idx", {T(bag_weight()), T(bag_indices()), T(bag_offsets()),
                                                           B(false), I(1), B(false), N(), B(false), I(-1)});
  check_values(composite[0], {3, 2}, {3, 4, 0, 0, 3, 4});
  auto plain = bag("aten::embedding_bag.default", {T(bag_weight()), T(bag_indices()), T(bag_offsets())});
  check_values(plain[0], {3, 2}, {6, 8, 0, 0, 17, 20});
  // bfloat16 weights sum in float32.
  auto bf = bag("aten::_embedding_bag.default",
                {T(bag_weight().to(DType::BFloat16)), T(bag_indices()), T(bag_offsets()), B(false), I(1)});
  CHECK(bf[0].dtype() == DType::BFloat16);
  check_values(bf[0], {3, 2}, {3, 4, 0, 0, 5.65625, 6.65625});
}

TEST_CASE("_embedding_bag errors", "[core_missing]") {
  const std::string op = "aten::_embedding_bag.default";
  CHECK(error_of(op, {T(bag_weight()), T(bag_indices()), T(make({2}, {1, 2}, DType::Int64))}) == ErrorCode::BadInput);
  CHECK(error_of(op, {T(bag_weight()), T(bag_indices()), T(make({2}, {0, 6}, DType::Int64))}) == ErrorCode::BadInput);
  CHECK(error_of(op, {T(bag_weight()), T(make({2}, {0, 4}, DType::Int64)), T(make({1}, {0}, DType::Int64))}) ==
        ErrorCode::BadInput);
  CHECK(error_of(op, {T(bag_weight()), T(bag_indices()), T(bag_offsets()), B(false), I(1), B(false),
                      T(make({5}, {1, 1, 1, 1, 1}))}) == ErrorCode::BadInput);
  CHECK(error_of(op, {T(bag_weight()), T(bag_indices().to(DType::Float32)), T(bag_offsets())}) ==
        ErrorCode::BadInput);
  CHECK(error_of("aten::embedding_bag.padding_idx", {T(bag_weight()), T(bag_indices()), T(bag_offsets()), B(false),
                                                     I(0), B(false), N(), B(false), I(4)}) == ErrorCode::BadInput);
}

// ---------------------------------------------------------------- atan2.out

TEST_CASE("atan2.out writes into out, or replaces an out of another shape", "[core_missing]") {
  const Tensor y = make({2}, {1, -1});
  const Tensor x = make({2}, {1, 0});
  const Tensor out = Tensor::empty(DType::Float64, {2});
  const Tensor r = call("aten::atan2.out", {T(y), T(x), T(out)});
  CHECK(r.storage() == out.storage());
  CHECK(r.dtype() == DType::Float64);
  check_values(out, {2}, {M_PI / 4, -M_PI / 2});
  // Integer inputs compute in float32; a broadcast result replaces a [0] out.
  const Tensor grown = call("aten::atan2.out", {T(make({2, 1}, {0, 1}, DType::Int64)), T(make({1}, {1}, DType::Int64)),
                                                T(Tensor::empty(DType::Float32, {0}))});
  check_values(grown, {2, 1}, {0, M_PI / 4});
  CHECK(error_of("aten::atan2.out", {T(y), T(x), T(Tensor::empty(DType::Int64, {2}))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::atan2.out", {T(y), T(x), T(Tensor::empty(DType::Int64, {3}))}) == ErrorCode::BadInput);
}
