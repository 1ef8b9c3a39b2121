// Convolutions on hand-checkable inputs: padding, stride, dilation, groups,
// transposed with output_padding, padding='same', unbatched and empty inputs,
// non-contiguous inputs, float64/bfloat16, and the errors ATen raises.
#include "ops_conv_pool_norm_util.h"

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::test_cpn;

namespace {
const std::vector<double> kNine = {1, 2, 3, 4, 5, 6, 7, 8, 9};
}

TEST_CASE("conv2d sums windows, adds bias, honours stride and padding", "[convolution]") {
  Tensor x = make({1, 1, 3, 3}, kNine);
  Tensor w2 = make({1, 1, 2, 2}, {1, 1, 1, 1});
  check_values(call("aten::conv2d.default", {T(x), T(w2)}), {1, 1, 2, 2}, {12, 16, 24, 28});
  check_values(call("aten::conv2d.default", {T(x), T(w2), T(make({1}, {1}))}), {1, 1, 2, 2}, {13, 17, 25, 29});
  Tensor w3 = make({1, 1, 3, 3}, std::vector<double>(9, 1.0));
  check_values(call("aten::conv2d.default", {T(x), T(w3), N(), L({2, 2}), L({1, 1})}), {1, 1, 2, 2},
               {12, 16, 24, 28});
  // The Core ATen form with every argument spelled out.
  check_values(call("aten::convolution.default",
                    {T(x), T(w3), N(), L({2, 2}), L({1, 1}), L({1, 1}), B(false), L({0, 0}), I(1)}),
               {1, 1, 2, 2}, {12, 16, 24, 28});
}

TEST_CASE("conv1d groups and dilation", "[convolution]") {
  Tensor x = make({1, 2, 3}, {1, 2, 3, 10, 20, 30});
  Tensor w = make({2, 1, 2}, {1, 1, 1, -1});
  check_values(call("aten::conv1d.default", {T(x), T(w), N(), L({1}), L({0}), L({1}), I(2)}), {1, 2, 2},
               {3, 5, -10, -10});
  Tensor y = make({1, 1, 5}, {1, 2, 3, 4, 5});
  check_values(call("aten::conv1d.default", {T(y), T(make({1, 1, 2}, {1, 1})), N(), L({1}), L({0}), L({2})}),
               {1, 1, 3}, {4, 6, 8});
}

TEST_CASE("conv_transpose1d stride, padding and output_padding", "[convolution]") {
  Tensor x = make({1, 1, 2}, {1, 2});
  Tensor w = make({1, 1, 3}, {1, 1, 1});
  check_values(call("aten::conv_transpose1d.default", {T(x), T(w)}), {1, 1, 4}, {1, 3, 3, 2});
  check_values(call("aten::conv_transpose1d.default", {T(x), T(w), N(), L({2})}), {1, 1, 5}, {1, 1, 3, 2, 2});
  check_values(call("aten::conv_transpose1d.default", {T(x), T(w), N(), L({2}), L({1})}), {1, 1, 3}, {1, 3, 2});
  check_values(call("aten::conv_transpose1d.default", {T(x), T(w), T(make({1}, {10})), L({2}), L({1}), L({1})}),
               {1, 1, 4}, {11, 13, 12, 12});
  // Output padding must stay below stride or dilation.
  CHECK(error_of("aten::conv_transpose1d.default", {T(x), T(w), N(), L({1}), L({0}), L({1})}) ==
        ErrorCode::BadInput);
}

TEST_CASE("conv_transpose2d with groups matches the per-group transposes", "[convolution]") {
  // Two groups of one channel each: every output channel is its input times a 1x1 kernel.
  Tensor x = make({1, 2, 1, 2}, {1, 2, 3, 4});
  Tensor w = make({2, 1, 1, 1}, {2, -1});
  check_values(call("aten::conv_transpose2d.input", {T(x), T(w), N(), L({1, 1}), L({0, 0}), L({0, 0}), I(2)}),
               {1, 2, 1, 2}, {2, 4, -3, -4});
}

TEST_CASE("conv padding='same' puts the odd padding on the right", "[convolution]") {
  Tensor x = make({1, 1, 4}, {1, 2, 3, 4});
  check_values(call("aten::conv1d.padding", {T(x), T(make({1, 1, 2}, {1, 1})), N(), L({1}), S("same")}), {1, 1, 4},
               {3, 5, 7, 4});
  check_values(call("aten::conv1d.padding", {T(x), T(make({1, 1, 2}, {1, 1})), N(), L({1}), S("valid")}), {1, 1, 3},
               {3, 5, 7});
  CHECK(error_of("aten::conv1d.padding", {T(x), T(make({1, 1, 2}, {1, 1})), N(), L({2}), S("same")}) ==
        ErrorCode::BadInput);
  CHECK(error_of("aten::conv1d.padding", {T(x), T(make({1, 1, 2}, {1, 1})), N(), L({1}), S("full")}) ==
        ErrorCode::BadInput);
}

TEST_CASE("conv accepts unbatched, empty, non-contiguous, float64 and bfloat16 inputs", "[convolution]") {
  Tensor w2 = make({1, 1, 2, 2}, {1, 1, 1, 1});
  check_values(call("aten::conv2d.default", {T(make({1, 3, 3}, kNine)), T(w2)}), {1, 2, 2}, {12, 16, 24, 28});
  Tensor empty = Tensor::empty(DType::Float32, {0, 1, 3, 3});
  CHECK(call("aten::conv2d.default", {T(empty), T(w2)}).sizes() == Shape{0, 1, 2, 2});
  // The transpose of 1..9 is [[1,4,7],[2,5,8],[3,6,9]].
  Tensor xt = transpose_view(make({1, 1, 3, 3}, kNine), 2, 3);
  check_values(call("aten::conv2d.default", {T(xt), T(w2)}), {1, 1, 2, 2}, {12, 24, 16, 28});
  Tensor xd = make({1, 1, 3, 3}, kNine, DType::Float64);
  Tensor yd = call("aten::conv2d.default", {T(xd), T(w2.to(DType::Float64))});
  CHECK(yd.dtype() == DType::Float64);
  check_values(yd, {1, 1, 2, 2}, {12, 16, 24, 28});
  Tensor yb = call("aten::conv2d.default", {T(make({1, 1, 3, 3}, kNine, DType::BFloat16)), T(w2.to(DType::BFloat16))});
  CHECK(yb.dtype() == DType::BFloat16);
  check_values(yb, {1, 1, 2, 2}, {12, 16, 24, 28});
}

TEST_CASE("conv3d and conv_transpose3d", "[convolution]") {
  std::vector<double> ones(8, 1.0);
  Tensor x = make({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_values(call("aten::conv3d.default", {T(x), T(make({1, 1, 2, 2, 2}, ones))}), {1, 1, 1, 1, 1}, {36});
  // A 1x1x1 transposed kernel with stride 2 spreads the input over every other voxel.
  Tensor y = call("aten::conv_transpose3d.input", {T(x), T(make({1, 1, 1, 1, 1}, {2})), N(), L({2, 2, 2})});
  REQUIRE(y.sizes() == Shape{1, 1, 3, 3, 3});
  CHECK(y.item_as_double(0) == 2);
  CHECK(y.item_as_double(1) == 0);
  CHECK(y.item_as_double(26) == 16);
}

TEST_CASE("conv rejects what ATen rejects", "[convolution]") {
  Tensor x = make({1, 1, 3, 3}, kNine);
  Tensor w = make({1, 2, 2, 2}, std::vector<double>(8, 1.0));
  CHECK(error_of("aten::conv2d.default", {T(x), T(w)}) == ErrorCode::BadInput);  // channel mismatch
  Tensor w2 = make({1, 1, 2, 2}, {1, 1, 1, 1});
  CHECK(error_of("aten::conv2d.default", {T(x), T(w2.to(DType::Float64))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::conv2d.default", {T(x.to(DType::Bool)), T(w2.to(DType::Bool))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::conv2d.default", {T(x), T(make({1, 1, 4, 4}, std::vector<double>(16, 1.0)))}) ==
        ErrorCode::BadInput);  // kernel larger than the input
  CHECK(error_of("aten::conv2d.default", {T(x), T(w2), T(make({2}, {1, 2}))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::conv2d.default", {T(x), T(w2), N(), L({0, 1})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::conv2d.default", {T(make({3, 3}, kNine)), T(w2)}) == ErrorCode::BadInput);
}

TEST_CASE("a batch of small images gives each image its own result", "[convolution]") {
  // Image 1 is image 0 times 2, image 2 is all ones: with a 2x2 box filter
  // and bias 1 the sums are hand-checkable, in float32 and float64.
  std::vector<double> pixels = kNine;
  for (double v : kNine) pixels.push_back(2 * v);
  for (int i = 0; i < 9; ++i) pixels.push_back(1);
  for (DType dtype : {DType::Float32, DType::Float64}) {
    Tensor x = make({3, 1, 3, 3}, pixels, dtype);
    Tensor w = make({2, 1, 2, 2}, {1, 1, 1, 1, 0, 0, 0, 1}, dtype);  // box filter, bottom-right tap
    Tensor b = make({2}, {1, 0}, dtype);
    check_values(call("aten::conv2d.default", {T(x), T(w), T(b)}), {3, 2, 2, 2},
                 {13, 17, 25, 29, 5, 6, 8, 9,      // image 0
                  25, 33, 49, 57, 10, 12, 16, 18,  // image 1
                  5, 5, 5, 5, 1, 1, 1, 1});        // image 2
  }
}
