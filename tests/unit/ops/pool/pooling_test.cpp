// Pooling and resampling on hand-checkable inputs: max pool values and
// indices, NaN propagation, ceil_mode, avg pool padding rules and
// divisor_override, int64 averages, adaptive windows, nearest/linear
// upsampling source indices, pixel (un)shuffle, and ATen's errors.
#include "ops/op_test.h"

#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {
std::vector<double> iota(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = i + 1;
  return v;
}
}  // namespace

TEST_CASE("max_pool2d values and flat per-plane indices", "[pooling]") {
  Tensor x = make({1, 1, 4, 4}, iota(16));
  auto out = call("aten::max_pool2d_with_indices.default", {tv(x), ints({2, 2})});
  check_values(out[0].tensor, {1, 1, 2, 2}, {6, 8, 14, 16});
  CHECK(out[1].tensor.dtype() == DType::Int64);
  check_values(out[1].tensor, {1, 1, 2, 2}, {5, 7, 13, 15});
  // Unbatched input and the second plane's indices restart at 0.
  Tensor y = make({2, 2, 2}, {1, 2, 3, 4, 8, 7, 6, 5});
  auto out2 = call("aten::max_pool2d_with_indices.default", {tv(y), ints({2, 2})});
  check_values(out2[0].tensor, {2, 1, 1}, {4, 8});
  check_values(out2[1].tensor, {2, 1, 1}, {3, 0});
  check_values(call1("aten::max_pool2d.default", {tv(x), ints({3}), ints({1}), ints({1})}), {1, 1, 4, 4},
               {6, 7, 8, 8, 10, 11, 12, 12, 14, 15, 16, 16, 14, 15, 16, 16});
}

TEST_CASE("max_pool propagates NaN and handles ceil_mode and dilation", "[pooling]") {
  Tensor x = make({1, 1, 4}, {1, kNaN, 3, 2});
  auto out = call("aten::max_pool1d_with_indices.default", {tv(x), ints({2})});
  check_values(out[0].tensor, {1, 1, 2}, {kNaN, 3});
  check_values(out[1].tensor, {1, 1, 2}, {1, 2});
  // Without indices too (another code path), including a NaN after the max.
  check_values(call1("aten::max_pool1d.default", {tv(x), ints({2})}), {1, 1, 2}, {kNaN, 3});
  check_values(call1("aten::max_pool1d.default", {tv(make({1, 1, 2}, {5, kNaN})), ints({2})}), {1, 1, 1}, {kNaN});
  Tensor y = make({1, 5}, iota(5));
  check_values(call1("aten::max_pool1d.default", {tv(y), ints({2}), ints({2})}), {1, 2}, {2, 4});
  check_values(call1("aten::max_pool1d.default", {tv(y), ints({2}), ints({2}), ints({0}), ints({1}), bv(true)}), {1, 3}, {2, 4, 5});
  // The last window would start in the right padding, so ceil_mode drops it.
  check_values(call1("aten::max_pool1d.default", {tv(y), ints({2}), ints({2}), ints({1}), ints({1}), bv(true)}), {1, 3}, {1, 3, 5});
  check_values(call1("aten::max_pool1d.default", {tv(y), ints({2}), ints({1}), ints({0}), ints({2})}), {1, 3}, {3, 4, 5});
  check_values(call1("aten::max_pool1d.default", {tv(y.to(DType::Int64)), ints({2})}), {1, 2}, {2, 4});
}

TEST_CASE("avg_pool padding, count_include_pad, ceil_mode and divisor_override", "[pooling]") {
  Tensor x = make({1, 4}, {1, 2, 3, 4});
  check_values(call1("aten::avg_pool1d.default", {tv(x), ints({3}), ints({1}), ints({1})}), {1, 4}, {1, 2, 3, 7.0 / 3});
  check_values(call1("aten::avg_pool1d.default", {tv(x), ints({3}), ints({1}), ints({1}), bv(false), bv(false)}), {1, 4},
               {1.5, 2, 3, 3.5});
  Tensor y = make({1, 5}, iota(5));
  check_values(call1("aten::avg_pool1d.default", {tv(y), ints({2}), ints({2}), ints({0}), bv(true)}), {1, 3}, {1.5, 3.5, 5});
  Tensor sq = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::avg_pool2d.default", {tv(sq), ints({2, 2}), ints({}), ints({0, 0}), bv(false), bv(true), iv(2)}),
               {1, 1, 1, 1}, {5});
  Tensor li = make({1, 3}, {1, 2, 4}, DType::Int64);
  Tensor avg = call1("aten::avg_pool1d.default", {tv(li), ints({2}), ints({1})});
  CHECK(avg.dtype() == DType::Int64);
  check_values(avg, {1, 2}, {1, 3});
  CHECK(error_code_of("aten::avg_pool2d.default", {tv(sq), ints({2, 2}), ints({}), ints({0, 0}), bv(false), bv(true), iv(0)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::avg_pool1d.default", {tv(x), ints({2}), ints({1}), ints({2})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::avg_pool1d.default", {tv(x.to(DType::Int32)), ints({2})}) == ErrorCode::BadInput);
}

TEST_CASE("adaptive pools use floor/ceil windows", "[pooling]") {
  Tensor x = make({1, 5}, iota(5));
  check_values(call1("aten::adaptive_avg_pool1d.default", {tv(x), ints({3})}), {1, 3}, {1.5, 3, 4.5});
  Tensor sq = make({1, 1, 3, 3}, iota(9));
  check_values(call1("aten::adaptive_avg_pool2d.default", {tv(sq), ints({1, 1})}), {1, 1, 1, 1}, {5});
  auto mx = call("aten::adaptive_max_pool2d.default", {tv(sq), ints({2, 2})});
  check_values(mx[0].tensor, {1, 1, 2, 2}, {5, 6, 8, 9});
  check_values(mx[1].tensor, {1, 1, 2, 2}, {4, 5, 7, 8});
  CHECK(call1("aten::adaptive_avg_pool2d.default", {tv(sq), ints({0, 2})}).sizes() == Shape{1, 1, 0, 2});
}

TEST_CASE("upsample nearest source indices follow ATen", "[pooling]") {
  Tensor x = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::upsample_nearest2d.vec", {tv(x), none(), doubles({2.0, 2.0})}), {1, 1, 4, 4},
               {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  Tensor r = make({1, 1, 2}, {1, 2});
  check_values(call1("aten::upsample_nearest1d.vec", {tv(r), ints({3}), none()}), {1, 1, 3}, {1, 1, 2});
  check_values(call1("aten::upsample_nearest1d.vec", {tv(r), none(), doubles({1.5})}), {1, 1, 3}, {1, 1, 2});
  check_values(call1("aten::_upsample_nearest_exact1d.vec", {tv(r), ints({3}), none()}), {1, 1, 3}, {1, 2, 2});
  CHECK(error_code_of("aten::upsample_nearest1d.vec", {tv(r), ints({3}), doubles({1.5})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::upsample_nearest1d.vec", {tv(r), ints({0}), none()}) == ErrorCode::BadInput);
}

TEST_CASE("upsample linear weights, with and without align_corners", "[pooling]") {
  Tensor r = make({1, 1, 2}, {1, 2});
  check_values(call1("aten::upsample_linear1d.vec", {tv(r), ints({4}), bv(false), none()}), {1, 1, 4}, {1, 1.25, 1.75, 2});
  check_values(call1("aten::upsample_linear1d.vec", {tv(r), ints({4}), bv(true), none()}), {1, 1, 4},
               {1, 4.0 / 3, 5.0 / 3, 2});
  Tensor x = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::upsample_bilinear2d.vec", {tv(x), ints({3, 3}), bv(true), none()}), {1, 1, 3, 3},
               {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  check_values(call1("aten::upsample_bilinear2d.default", {tv(x), ints({2, 2}), bv(false)}), {1, 1, 2, 2}, {1, 2, 3, 4});
  CHECK(error_code_of("aten::upsample_bilinear2d.vec", {tv(x.to(DType::Int64)), ints({3, 3}), bv(true), none()}) ==
        ErrorCode::BadInput);
}

TEST_CASE("upsample bicubic keeps constants and copies at equal size", "[pooling]") {
  Tensor flat = make({1, 1, 2, 2}, {3, 3, 3, 3});
  check_values(call1("aten::upsample_bicubic2d.vec", {tv(flat), ints({4, 3}), bv(false), none()}), {1, 1, 4, 3},
               std::vector<double>(12, 3.0));
  Tensor x = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::upsample_bicubic2d.default", {tv(x), ints({2, 2}), bv(false)}), {1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::upsample_bicubic2d.vec", {tv(x), none(), bv(true), doubles({1.0, 1.0})}), {1, 1, 2, 2},
               {1, 2, 3, 4});
}

TEST_CASE("pixel_shuffle and pixel_unshuffle are inverse rearrangements", "[pooling]") {
  Tensor x = make({1, 4, 1, 1}, {1, 2, 3, 4});
  Tensor up = call1("aten::pixel_shuffle.default", {tv(x), iv(2)});
  check_values(up, {1, 1, 2, 2}, {1, 2, 3, 4});
  Tensor wide = make({1, 8, 1, 2}, iota(16));
  Tensor s = call1("aten::pixel_shuffle.default", {tv(wide), iv(2)});
  // Channel c*4 + i*2 + j lands at (h*2 + i, w*2 + j); input value = channel*2 + w + 1.
  check_values(s, {1, 2, 2, 4}, {1, 3, 2, 4, 5, 7, 6, 8, 9, 11, 10, 12, 13, 15, 14, 16});
  Tensor back = call1("aten::pixel_unshuffle.default", {tv(s), iv(2)});
  check_values(back, {1, 8, 1, 2}, iota(16));
  CHECK(error_code_of("aten::pixel_shuffle.default", {tv(make({1, 3, 1, 1}, {1, 2, 3})), iv(2)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::pixel_unshuffle.default", {tv(make({1, 1, 1, 3}, {1, 2, 3})), iv(2)}) == ErrorCode::BadInput);
}

TEST_CASE("3-d pools and trilinear upsampling", "[pooling]") {
  Tensor x = make({1, 1, 2, 2, 2}, iota(8));
  auto mx = call("aten::max_pool3d_with_indices.default", {tv(x), ints({2, 2, 2})});
  check_values(mx[0].tensor, {1, 1, 1, 1, 1}, {8});
  check_values(mx[1].tensor, {1, 1, 1, 1, 1}, {7});
  check_values(call1("aten::avg_pool3d.default", {tv(x), ints({2, 2, 2})}), {1, 1, 1, 1, 1}, {4.5});
  check_values(call1("aten::adaptive_avg_pool3d.default", {tv(x), ints({1, 1, 2})}), {1, 1, 1, 1, 2}, {4, 5});
  check_values(call1("aten::upsample_trilinear3d.vec", {tv(x), ints({2, 2, 2}), bv(false), none()}), {1, 1, 2, 2, 2}, iota(8));
  Tensor up = call1("aten::upsample_trilinear3d.vec", {tv(x), ints({3, 3, 3}), bv(true), none()});
  REQUIRE(up.sizes() == Shape{1, 1, 3, 3, 3});
  CHECK(up.item_as_double(13) == Approx(4.5));  // the centre averages all eight corners
  check_values(call1("aten::upsample_nearest3d.vec", {tv(x), none(), doubles({1.0, 1.0, 2.0})}), {1, 1, 2, 2, 4},
               {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8});
}

TEST_CASE("pools reject bad geometry and dtypes", "[pooling]") {
  Tensor x = make({1, 1, 4, 4}, iota(16));
  CHECK(error_code_of("aten::max_pool2d.default", {tv(x), ints({2, 2}), ints({}), ints({2, 2})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_pool2d.default", {tv(x), ints({5, 5})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_pool2d.default", {tv(x), ints({2, 2, 2})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_pool2d.default", {tv(x.to(DType::Bool)), ints({2, 2})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_pool2d.default", {tv(make({4}, {1, 2, 3, 4})), ints({2, 2})}) == ErrorCode::BadInput);
}
