// Convolutions on hand-checkable inputs: padding, stride, dilation, groups,
// transposed with output_padding, padding='same', unbatched and empty inputs,
// non-contiguous inputs, float64/bfloat16, and the errors ATen raises.
#include "ops/op_test.h"

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {
const std::vector<double> kNine = {1, 2, 3, 4, 5, 6, 7, 8, 9};
}

TEST_CASE("conv2d sums windows, adds bias, honours stride and padding", "[convolution]") {
  Tensor x = make({1, 1, 3, 3}, kNine);
  Tensor w2 = make({1, 1, 2, 2}, {1, 1, 1, 1});
  check_values(call1("aten::conv2d.default", {tv(x), tv(w2)}), {1, 1, 2, 2}, {12, 16, 24, 28});
  check_values(call1("aten::conv2d.default", {tv(x), tv(w2), tv(make({1}, {1}))}), {1, 1, 2, 2}, {13, 17, 25, 29});
  Tensor w3 = make({1, 1, 3, 3}, std::vector<double>(9, 1.0));
  check_values(call1("aten::conv2d.default", {tv(x), tv(w3), none(), ints({2, 2}), ints({1, 1})}), {1, 1, 2, 2},
               {12, 16, 24, 28});
  // The Core ATen form with every argument spelled out.
  check_values(call1("aten::convolution.default",
                    {tv(x), tv(w3), none(), ints({2, 2}), ints({1, 1}), ints({1, 1}), bv(false), ints({0, 0}), iv(1)}),
               {1, 1, 2, 2}, {12, 16, 24, 28});
}

TEST_CASE("conv1d groups and dilation", "[convolution]") {
  Tensor x = make({1, 2, 3}, {1, 2, 3, 10, 20, 30});
  Tensor w = make({2, 1, 2}, {1, 1, 1, -1});
  check_values(call1("aten::conv1d.default", {tv(x), tv(w), none(), ints({1}), ints({0}), ints({1}), iv(2)}), {1, 2, 2},
               {3, 5, -10, -10});
  Tensor y = make({1, 1, 5}, {1, 2, 3, 4, 5});
  check_values(call1("aten::conv1d.default", {tv(y), tv(make({1, 1, 2}, {1, 1})), none(), ints({1}), ints({0}), ints({2})}),
               {1, 1, 3}, {4, 6, 8});
}

TEST_CASE("conv_transpose1d stride, padding and output_padding", "[convolution]") {
  Tensor x = make({1, 1, 2}, {1, 2});
  Tensor w = make({1, 1, 3}, {1, 1, 1});
  check_values(call1("aten::conv_transpose1d.default", {tv(x), tv(w)}), {1, 1, 4}, {1, 3, 3, 2});
  check_values(call1("aten::conv_transpose1d.default", {tv(x), tv(w), none(), ints({2})}), {1, 1, 5}, {1, 1, 3, 2, 2});
  check_values(call1("aten::conv_transpose1d.default", {tv(x), tv(w), none(), ints({2}), ints({1})}), {1, 1, 3}, {1, 3, 2});
  check_values(call1("aten::conv_transpose1d.default", {tv(x), tv(w), tv(make({1}, {10})), ints({2}), ints({1}), ints({1})}),
               {1, 1, 4}, {11, 13, 12, 12});
  // Output padding must stay below stride or dilation.
  CHECK(error_code_of("aten::conv_transpose1d.default", {tv(x), tv(w), none(), ints({1}), ints({0}), ints({1})}) ==
        ErrorCode::BadInput);
}

TEST_CASE("conv_transpose2d with groups matches the per-group transposes", "[convolution]") {
  // Two groups of one channel each: every output channel is its input times a 1x1 kernel.
  Tensor x = make({1, 2, 1, 2}, {1, 2, 3, 4});
  Tensor w = make({2, 1, 1, 1}, {2, -1});
  check_values(call1("aten::conv_transpose2d.input", {tv(x), tv(w), none(), ints({1, 1}), ints({0, 0}), ints({0, 0}), iv(2)}),
               {1, 2, 1, 2}, {2, 4, -3, -4});
}

TEST_CASE("conv padding='same' puts the odd padding on the right", "[convolution]") {
  Tensor x = make({1, 1, 4}, {1, 2, 3, 4});
  check_values(call1("aten::conv1d.padding", {tv(x), tv(make({1, 1, 2}, {1, 1})), none(), ints({1}), sv("same")}), {1, 1, 4},
               {3, 5, 7, 4});
  check_values(call1("aten::conv1d.padding", {tv(x), tv(make({1, 1, 2}, {1, 1})), none(), ints({1}), sv("valid")}), {1, 1, 3},
               {3, 5, 7});
  CHECK(error_code_of("aten::conv1d.padding", {tv(x), tv(make({1, 1, 2}, {1, 1})), none(), ints({2}), sv("same")}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::conv1d.padding", {tv(x), tv(make({1, 1, 2}, {1, 1})), none(), ints({1}), sv("full")}) ==
        ErrorCode::BadInput);
}

TEST_CASE("conv accepts unbatched, empty, non-contiguous, float64 and bfloat16 inputs", "[convolution]") {
  Tensor w2 = make({1, 1, 2, 2}, {1, 1, 1, 1});
  check_values(call1("aten::conv2d.default", {tv(make({1, 3, 3}, kNine)), tv(w2)}), {1, 2, 2}, {12, 16, 24, 28});
  Tensor empty = Tensor::empty(DType::Float32, {0, 1, 3, 3});
  CHECK(call1("aten::conv2d.default", {tv(empty), tv(w2)}).sizes() == Shape{0, 1, 2, 2});
  // The transpose of 1..9 is [[1,4,7],[2,5,8],[3,6,9]].
  Tensor xt = transpose_view(make({1, 1, 3, 3}, kNine), 2, 3);
  check_values(call1("aten::conv2d.default", {tv(xt), tv(w2)}), {1, 1, 2, 2}, {12, 24, 16, 28});
  Tensor xd = make({1, 1, 3, 3}, kNine, DType::Float64);
  Tensor yd = call1("aten::conv2d.default", {tv(xd), tv(w2.to(DType::Float64))});
  CHECK(yd.dtype() == DType::Float64);
  check_values(yd, {1, 1, 2, 2}, {12, 16, 24, 28});
  Tensor yb = call1("aten::conv2d.default", {tv(make({1, 1, 3, 3}, kNine, DType::BFloat16)), tv(w2.to(DType::BFloat16))});
  CHECK(yb.dtype() == DType::BFloat16);
  check_values(yb, {1, 1, 2, 2}, {12, 16, 24, 28});
}

TEST_CASE("conv3d and conv_transpose3d", "[convolution]") {
  std::vector<double> ones(8, 1.0);
  Tensor x = make({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_values(call1("aten::conv3d.default", {tv(x), tv(make({1, 1, 2, 2, 2}, ones))}), {1, 1, 1, 1, 1}, {36});
  // A 1x1x1 transposed kernel with stride 2 spreads the input over every other voxel.
  Tensor y = call1("aten::conv_transpose3d.input", {tv(x), tv(make({1, 1, 1, 1, 1}, {2})), none(), ints({2, 2, 2})});
  REQUIRE(y.sizes() == Shape{1, 1, 3, 3, 3});
  CHECK(y.item_as_double(0) == 2);
  CHECK(y.item_as_double(1) == 0);
  CHECK(y.item_as_double(26) == 16);
}

TEST_CASE("conv rejects what ATen rejects", "[convolution]") {
  Tensor x = make({1, 1, 3, 3}, kNine);
  Tensor w = make({1, 2, 2, 2}, std::vector<double>(8, 1.0));
  CHECK(error_code_of("aten::conv2d.default", {tv(x), tv(w)}) == ErrorCode::BadInput);  // channel mismatch
  Tensor w2 = make({1, 1, 2, 2}, {1, 1, 1, 1});
  CHECK(error_code_of("aten::conv2d.default", {tv(x), tv(w2.to(DType::Float64))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::conv2d.default", {tv(x.to(DType::Bool)), tv(w2.to(DType::Bool))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::conv2d.default", {tv(x), tv(make({1, 1, 4, 4}, std::vector<double>(16, 1.0)))}) ==
        ErrorCode::BadInput);  // kernel larger than the input
  CHECK(error_code_of("aten::conv2d.default", {tv(x), tv(w2), tv(make({2}, {1, 2}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::conv2d.default", {tv(x), tv(w2), none(), ints({0, 1})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::conv2d.default", {tv(make({3, 3}, kNine)), tv(w2)}) == ErrorCode::BadInput);
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
    check_values(call1("aten::conv2d.default", {tv(x), tv(w), tv(b)}), {3, 2, 2, 2},
                 {13, 17, 25, 29, 5, 6, 8, 9,      // image 0
                  25, 33, 49, 57, 10, 12, 16, 18,  // image 1
                  5, 5, 5, 5, 1, 1, 1, 1});        // image 2
  }
}
