// Pooling and resampling on hand-checkable inputs: max pool values and
// indices, NaN propagation, ceil_mode, avg pool padding rules and
// divisor_override, int64 averages, adaptive windows, nearest/linear
// upsampling source indices, pixel (un)shuffle, and ATen's errors.
#include "ops_conv_pool_norm_util.h"

#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::test_cpn;

namespace {
std::vector<double> iota(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = i + 1;
  return v;
}
const double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("max_pool2d values and flat per-plane indices", "[pooling]") {
  Tensor x = make({1, 1, 4, 4}, iota(16));
  auto out = call_all("aten::max_pool2d_with_indices.default", {T(x), L({2, 2})});
  check_values(out[0].tensor, {1, 1, 2, 2}, {6, 8, 14, 16});
  CHECK(out[1].tensor.dtype() == DType::Int64);
  check_values(out[1].tensor, {1, 1, 2, 2}, {5, 7, 13, 15});
  // Unbatched input and the second plane's indices restart at 0.
  Tensor y = make({2, 2, 2}, {1, 2, 3, 4, 8, 7, 6, 5});
  auto out2 = call_all("aten::max_pool2d_with_indices.default", {T(y), L({2, 2})});
  check_values(out2[0].tensor, {2, 1, 1}, {4, 8});
  check_values(out2[1].tensor, {2, 1, 1}, {3, 0});
  check_values(call("aten::max_pool2d.default", {T(x), L({3}), L({1}), L({1})}), {1, 1, 4, 4},
               {6, 7, 8, 8, 10, 11, 12, 12, 14, 15, 16, 16, 14, 15, 16, 16});
}

TEST_CASE("max_pool propagates NaN and handles ceil_mode and dilation", "[pooling]") {
  Tensor x = make({1, 1, 4}, {1, kNaN, 3, 2});
  auto out = call_all("aten::max_pool1d_with_indices.default", {T(x), L({2})});
  check_values(out[0].tensor, {1, 1, 2}, {kNaN, 3});
  check_values(out[1].tensor, {1, 1, 2}, {1, 2});
  // Without indices too (another code path), including a NaN after the max.
  check_values(call("aten::max_pool1d.default", {T(x), L({2})}), {1, 1, 2}, {kNaN, 3});
  check_values(call("aten::max_pool1d.default", {T(make({1, 1, 2}, {5, kNaN})), L({2})}), {1, 1, 1}, {kNaN});
  Tensor y = make({1, 5}, iota(5));
  check_values(call("aten::max_pool1d.default", {T(y), L({2}), L({2})}), {1, 2}, {2, 4});
  check_values(call("aten::max_pool1d.default", {T(y), L({2}), L({2}), L({0}), L({1}), B(true)}), {1, 3}, {2, 4, 5});
  // The last window would start in the right padding, so ceil_mode drops it.
  check_values(call("aten::max_pool1d.default", {T(y), L({2}), L({2}), L({1}), L({1}), B(true)}), {1, 3}, {1, 3, 5});
  check_values(call("aten::max_pool1d.default", {T(y), L({2}), L({1}), L({0}), L({2})}), {1, 3}, {3, 4, 5});
  check_values(call("aten::max_pool1d.default", {T(y.to(DType::Int64)), L({2})}), {1, 2}, {2, 4});
}

TEST_CASE("avg_pool padding, count_include_pad, ceil_mode and divisor_override", "[pooling]") {
  Tensor x = make({1, 4}, {1, 2, 3, 4});
  check_values(call("aten::avg_pool1d.default", {T(x), L({3}), L({1}), L({1})}), {1, 4}, {1, 2, 3, 7.0 / 3});
  check_values(call("aten::avg_pool1d.default", {T(x), L({3}), L({1}), L({1}), B(false), B(false)}), {1, 4},
               {1.5, 2, 3, 3.5});
  Tensor y = make({1, 5}, iota(5));
  check_values(call("aten::avg_pool1d.default", {T(y), L({2}), L({2}), L({0}), B(true)}), {1, 3}, {1.5, 3.5, 5});
  Tensor sq = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call("aten::avg_pool2d.default", {T(sq), L({2, 2}), L({}), L({0, 0}), B(false), B(true), I(2)}),
               {1, 1, 1, 1}, {5});
  Tensor li = make({1, 3}, {1, 2, 4}, DType::Int64);
  Tensor avg = call("aten::avg_pool1d.default", {T(li), L({2}), L({1})});
  CHECK(avg.dtype() == DType::Int64);
  check_values(avg, {1, 2}, {1, 3});
  CHECK(error_of("aten::avg_pool2d.default", {T(sq), L({2, 2}), L({}), L({0, 0}), B(false), B(true), I(0)}) ==
        ErrorCode::BadInput);
  CHECK(error_of("aten::avg_pool1d.default", {T(x), L({2}), L({1}), L({2})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::avg_pool1d.default", {T(x.to(DType::Int32)), L({2})}) == ErrorCode::BadInput);
}

TEST_CASE("adaptive pools use floor/ceil windows", "[pooling]") {
  Tensor x = make({1, 5}, iota(5));
  check_values(call("aten::adaptive_avg_pool1d.default", {T(x), L({3})}), {1, 3}, {1.5, 3, 4.5});
  Tensor sq = make({1, 1, 3, 3}, iota(9));
  check_values(call("aten::adaptive_avg_pool2d.default", {T(sq), L({1, 1})}), {1, 1, 1, 1}, {5});
  auto mx = call_all("aten::adaptive_max_pool2d.default", {T(sq), L({2, 2})});
  check_values(mx[0].tensor, {1, 1, 2, 2}, {5, 6, 8, 9});
  check_values(mx[1].tensor, {1, 1, 2, 2}, {4, 5, 7, 8});
  CHECK(call("aten::adaptive_avg_pool2d.default", {T(sq), L({0, 2})}).sizes() == Shape{1, 1, 0, 2});
}

TEST_CASE("upsample nearest source indices follow ATen", "[pooling]") {
  Tensor x = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call("aten::upsample_nearest2d.vec", {T(x), N(), FL({2.0, 2.0})}), {1, 1, 4, 4},
               {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  Tensor r = make({1, 1, 2}, {1, 2});
  check_values(call("aten::upsample_nearest1d.vec", {T(r), L({3}), N()}), {1, 1, 3}, {1, 1, 2});
  check_values(call("aten::upsample_nearest1d.vec", {T(r), N(), FL({1.5})}), {1, 1, 3}, {1, 1, 2});
  check_values(call("aten::_upsample_nearest_exact1d.vec", {T(r), L({3}), N()}), {1, 1, 3}, {1, 2, 2});
  CHECK(error_of("aten::upsample_nearest1d.vec", {T(r), L({3}), FL({1.5})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::upsample_nearest1d.vec", {T(r), L({0}), N()}) == ErrorCode::BadInput);
}

TEST_CASE("upsample linear weights, with and without align_corners", "[pooling]") {
  Tensor r = make({1, 1, 2}, {1, 2});
  check_values(call("aten::upsample_linear1d.vec", {T(r), L({4}), B(false), N()}), {1, 1, 4}, {1, 1.25, 1.75, 2});
  check_values(call("aten::upsample_linear1d.vec", {T(r), L({4}), B(true), N()}), {1, 1, 4},
               {1, 4.0 / 3, 5.0 / 3, 2});
  Tensor x = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call("aten::upsample_bilinear2d.vec", {T(x), L({3, 3}), B(true), N()}), {1, 1, 3, 3},
               {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  check_values(call("aten::upsample_bilinear2d.default", {T(x), L({2, 2}), B(false)}), {1, 1, 2, 2}, {1, 2, 3, 4});
  CHECK(error_of("aten::upsample_bilinear2d.vec", {T(x.to(DType::Int64)), L({3, 3}), B(true), N()}) ==
        ErrorCode::BadInput);
}

TEST_CASE("upsample bicubic keeps constants and copies at equal size", "[pooling]") {
  Tensor flat = make({1, 1, 2, 2}, {3, 3, 3, 3});
  check_values(call("aten::upsample_bicubic2d.vec", {T(flat), L({4, 3}), B(false), N()}), {1, 1, 4, 3},
               std::vector<double>(12, 3.0));
  Tensor x = make({1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call("aten::upsample_bicubic2d.default", {T(x), L({2, 2}), B(false)}), {1, 1, 2, 2}, {1, 2, 3, 4});
  check_values(call("aten::upsample_bicubic2d.vec", {T(x), N(), B(true), FL({1.0, 1.0})}), {1, 1, 2, 2},
               {1, 2, 3, 4});
}

TEST_CASE("pixel_shuffle and pixel_unshuffle are inverse rearrangements", "[pooling]") {
  Tensor x = make({1, 4, 1, 1}, {1, 2, 3, 4});
  Tensor up = call("aten::pixel_shuffle.default", {T(x), I(2)});
  check_values(up, {1, 1, 2, 2}, {1, 2, 3, 4});
  Tensor wide = make({1, 8, 1, 2}, iota(16));
  Tensor s = call("aten::pixel_shuffle.default", {T(wide), I(2)});
  // Channel c*4 + i*2 + j lands at (h*2 + i, w*2 + j); input value = channel*2 + w + 1.
  check_values(s, {1, 2, 2, 4}, {1, 3, 2, 4, 5, 7, 6, 8, 9, 11, 10, 12, 13, 15, 14, 16});
  Tensor back = call("aten::pixel_unshuffle.default", {T(s), I(2)});
  check_values(back, {1, 8, 1, 2}, iota(16));
  CHECK(error_of("aten::pixel_shuffle.default", {T(make({1, 3, 1, 1}, {1, 2, 3})), I(2)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::pixel_unshuffle.default", {T(make({1, 1, 1, 3}, {1, 2, 3})), I(2)}) == ErrorCode::BadInput);
}

TEST_CASE("3-d pools and trilinear upsampling", "[pooling]") {
  Tensor x = make({1, 1, 2, 2, 2}, iota(8));
  auto mx = call_all("aten::max_pool3d_with_indices.default", {T(x), L({2, 2, 2})});
  check_values(mx[0].tensor, {1, 1, 1, 1, 1}, {8});
  check_values(mx[1].tensor, {1, 1, 1, 1, 1}, {7});
  check_values(call("aten::avg_pool3d.default", {T(x), L({2, 2, 2})}), {1, 1, 1, 1, 1}, {4.5});
  check_values(call("aten::adaptive_avg_pool3d.default", {T(x), L({1, 1, 2})}), {1, 1, 1, 1, 2}, {4, 5});
  check_values(call("aten::upsample_trilinear3d.vec", {T(x), L({2, 2, 2}), B(false), N()}), {1, 1, 2, 2, 2}, iota(8));
  Tensor up = call("aten::upsample_trilinear3d.vec", {T(x), L({3, 3, 3}), B(true), N()});
  REQUIRE(up.sizes() == Shape{1, 1, 3, 3, 3});
  CHECK(up.item_as_double(13) == Approx(4.5));  // the centre averages all eight corners
  check_values(call("aten::upsample_nearest3d.vec", {T(x), N(), FL({1.0, 1.0, 2.0})}), {1, 1, 2, 2, 4},
               {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8});
}

TEST_CASE("pools reject bad geometry and dtypes", "[pooling]") {
  Tensor x = make({1, 1, 4, 4}, iota(16));
  CHECK(error_of("aten::max_pool2d.default", {T(x), L({2, 2}), L({}), L({2, 2})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::max_pool2d.default", {T(x), L({5, 5})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::max_pool2d.default", {T(x), L({2, 2, 2})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::max_pool2d.default", {T(x.to(DType::Bool)), L({2, 2})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::max_pool2d.default", {T(make({4}, {1, 2, 3, 4})), L({2, 2})}) == ErrorCode::BadInput);
}
