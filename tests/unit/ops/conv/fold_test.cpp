// im2col / col2im: block layout and overlap counts on hand-checkable inputs.
#include "ops/op_test.h"

#include <cmath>
#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("im2col lays out 2x2 blocks of a 3x3 image", "[conv]") {
  const Tensor image = make({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Tensor cols = call1("aten::im2col.default", {tv(image), ints({2, 2}), ints({1, 1}), ints({0, 0}), ints({1, 1})});
  check_values(cols, {1, 4, 4}, {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9});
  // Unbatched, with padding 1 and stride 2: blocks at (-1, -1), (-1, 1), (1, -1), (1, 1).
  const Tensor padded = call1("aten::im2col.default", {tv(make({1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})), ints({2, 2}),
                                                      ints({1, 1}), ints({1, 1}), ints({2, 2})});
  check_values(padded, {4, 4}, {0, 0, 0, 5, 0, 0, 4, 6, 0, 2, 0, 8, 1, 3, 7, 9});
  // Dilation 2: one block made of the corners.
  const Tensor dilated = call1("aten::im2col.default", {tv(image), ints({2, 2}), ints({2, 2}), ints({0, 0}), ints({1, 1})});
  check_values(dilated, {1, 4, 1}, {1, 3, 7, 9});
  CHECK(error_code_of("aten::im2col.default", {tv(make({1, 1, 1, 1}, {1})), ints({2, 2}), ints({1, 1}), ints({0, 0}),
                                          ints({1, 1})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::im2col.default", {tv(image.to(DType::Int64)), ints({2, 2}), ints({1, 1}), ints({0, 0}), ints({1, 1})}) ==
        ErrorCode::BadInput);
}

TEST_CASE("col2im of im2col counts the blocks covering each pixel", "[conv]") {
  const Tensor ones = make({2, 1, 3, 3}, std::vector<double>(18, 1.0));
  const Tensor cols = call1("aten::im2col.default", {tv(ones), ints({2, 2}), ints({1, 1}), ints({0, 0}), ints({1, 1})});
  const Tensor folded =
      call1("aten::col2im.default", {tv(cols), ints({3, 3}), ints({2, 2}), ints({1, 1}), ints({0, 0}), ints({1, 1})});
  check_values(folded, {2, 1, 3, 3}, {1, 2, 1, 2, 4, 2, 1, 2, 1, 1, 2, 1, 2, 4, 2, 1, 2, 1});
  // Unbatched [C*kh*kw, L]: a 3x3 kernel with padding 1 over a 2x2 image
  // covers every pixel from each of the 4 blocks.
  const Tensor unbatched =
      call1("aten::col2im.default",
           {tv(make({9, 4}, std::vector<double>(36, 1.0))), ints({2, 2}), ints({3, 3}), ints({1, 1}), ints({1, 1}), ints({1, 1})});
  check_values(unbatched, {1, 2, 2}, {4, 4, 4, 4});
  // float16 sums in float16; bool sums as "or".
  const Tensor half = call1("aten::col2im.default", {tv(cols.to(DType::Float16)), ints({3, 3}), ints({2, 2}), ints({1, 1}),
                                                    ints({0, 0}), ints({1, 1})});
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {2, 1, 3, 3}, {1, 2, 1, 2, 4, 2, 1, 2, 1, 1, 2, 1, 2, 4, 2, 1, 2, 1});
  const Tensor flags = call1("aten::col2im.default", {tv(cols.to(DType::Bool)), ints({3, 3}), ints({2, 2}), ints({1, 1}),
                                                     ints({0, 0}), ints({1, 1})});
  check_values(flags, {2, 1, 3, 3}, std::vector<double>(18, 1.0));
  // Wrong number of blocks, channels not divisible by the kernel, integer input.
  CHECK(error_code_of("aten::col2im.default", {tv(cols), ints({4, 4}), ints({2, 2}), ints({1, 1}), ints({0, 0}), ints({1, 1})}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::col2im.default", {tv(make({1, 3, 4}, std::vector<double>(12, 0))), ints({3, 3}), ints({2, 2}),
                                          ints({1, 1}), ints({0, 0}), ints({1, 1})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::col2im.default", {tv(cols.to(DType::Int64)), ints({3, 3}), ints({2, 2}), ints({1, 1}), ints({0, 0}),
                                          ints({1, 1})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::col2im.default", {tv(cols), ints({3, 3}), ints({2, 2}), ints({1, 1}), ints({0, 0}), ints({0, 1})}) ==
        ErrorCode::BadInput);
}
