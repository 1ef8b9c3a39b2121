// The weight rows of the int8 products (ops/quantized/widened_weights.h):
// int8 weights with zero points 0 are read in place (even rows) or copied
// with a zero pad (odd rows); others are widened to int16 minus their zero
// points; fixed weights are kept between calls, others made per call.
#include <catch2/catch.hpp>

#include "ops/quantized/widened_weights.h"

using namespace pt2web;
using namespace pt2web::quantized;

namespace {

Tensor int8_weight(int64_t rows, int64_t cols) {
  Tensor w = Tensor::empty(DType::Int8, {rows, cols});
  for (int64_t i = 0; i < w.numel(); ++i) w.data<int8_t>()[i] = static_cast<int8_t>((i * 37) % 255 - 127);
  return w;
}

}  // namespace

TEST_CASE("int8 weights with zero points 0 are read in place or padded", "[ops][quantized]") {
  const Tensor even = int8_weight(3, 4);
  const WidenedWeight in_place = widened_weight(even, 3, 4, {0, 0, 0}, true);
  CHECK(in_place.int8);
  CHECK(in_place.ld == 4);
  CHECK(in_place.rows.raw_data() == even.raw_data());

  const Tensor odd = int8_weight(3, 5);
  const WidenedWeight padded = widened_weight(odd, 3, 5, {0, 0, 0}, true);
  REQUIRE(padded.int8);
  REQUIRE(padded.ld == 6);
  for (int64_t r = 0; r < 3; ++r) {
    for (int64_t c = 0; c < 5; ++c) CHECK(padded.rows.data<int8_t>()[r * 6 + c] == odd.data<int8_t>()[r * 5 + c]);
    CHECK(padded.rows.data<int8_t>()[r * 6 + 5] == 0);
  }
  // a fixed weight's copy is kept; an unfixed one is made again
  CHECK(widened_weight(odd, 3, 5, {0, 0, 0}, true).rows.raw_data() == padded.rows.raw_data());
  CHECK(widened_weight(odd, 3, 5, {0, 0, 0}, false).rows.raw_data() != padded.rows.raw_data());
}

TEST_CASE("other weights are widened to int16 minus their zero points", "[ops][quantized]") {
  const Tensor w = int8_weight(2, 3);
  const std::vector<int32_t> zero_points = {5, -7};
  for (bool allow_int8 : {true, false}) {
    const WidenedWeight wide = widened_weight(w, 2, 3, zero_points, true, allow_int8);
    REQUIRE_FALSE(wide.int8);
    REQUIRE(wide.ld == 4);
    for (int64_t r = 0; r < 2; ++r) {
      for (int64_t c = 0; c < 3; ++c)
        CHECK(wide.rows.data<int16_t>()[r * 4 + c] == int32_t(w.data<int8_t>()[r * 3 + c]) - zero_points[r]);
      CHECK(wide.rows.data<int16_t>()[r * 4 + 3] == 0);
    }
    CHECK(widened_weight(w, 2, 3, zero_points, true, allow_int8).rows.raw_data() == wide.rows.raw_data());
  }
  // int16 asked for (the depthwise kernel), zero points 0: widened too, not the int8 bytes
  const WidenedWeight depthwise = widened_weight(w, 2, 3, {0, 0}, true, false);
  CHECK_FALSE(depthwise.int8);
  CHECK(depthwise.rows.dtype() == DType::Int16);
  // other zero points: another entry, not the kept one
  const WidenedWeight other = widened_weight(w, 2, 3, {1, 1}, true);
  CHECK(other.rows.data<int16_t>()[0] == int32_t(w.data<int8_t>()[0]) - 1);
}
