// strides_allow_view (ops/views.h): whether view() can reuse a tensor's
// strides for a new shape, as ATen's computeStride decides; the runtime asks
// it before a view of a value whose layout may differ from torch's
// (runtime/torch_layout.h).
#include <catch2/catch.hpp>

#include "ops/views.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;

TEST_CASE("strides_allow_view follows ATen's rule", "[ops][views]") {
  Tensor t = Tensor::empty(DType::Float32, {2, 4, 5, 4});  // (B, H, T, D), contiguous
  Tensor merged_heads = transpose_view(t, 1, 2);            // (B, T, H, D) with (80, 4, 20, 1) strides
  CHECK(strides_allow_view(t, {2, 4, 20}));
  CHECK(strides_allow_view(t, {-1, 20}));
  // H and D are not adjacent in memory after the transpose: (B, T, H*D) needs a copy.
  CHECK_FALSE(strides_allow_view(merged_heads, {2, 5, 16}));
  CHECK_THROWS_AS(view_as(merged_heads, {2, 5, 16}), Error);
  // Splitting a dimension, or keeping the batch apart, still works.
  CHECK(strides_allow_view(merged_heads, {2, 5, 2, 2, 4}));
  CHECK(strides_allow_view(merged_heads.as_strided({2, 5, 4, 4}, {80, 16, 4, 1}, 0), {2, 5, 16}));
  // A wrong element count is view_as's error to report, not a layout question.
  CHECK(strides_allow_view(merged_heads, {7, 3}));
  CHECK(strides_allow_view(merged_heads, {-1, -1}));
}
