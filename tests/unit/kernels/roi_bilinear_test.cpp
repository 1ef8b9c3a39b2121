// The two bilinear rules of kernels/roi/bilinear.h on a 2x2 plane, where
// each value follows by hand: inside they agree; near and past the border
// the clamped rule (roi_align) repeats the edge pixel and the zero-padded
// rule (deform_conv2d) fades towards zero.
#include <catch2/catch.hpp>

#include "kernels/roi/bilinear.h"

using namespace pt2web;

TEMPLATE_TEST_CASE("clamped and zero-padded bilinear sampling", "[kernels][roi]", float, double) {
  const TestType plane[4] = {1, 2, 3, 4};
  auto clamped = [&](double y, double x) {
    return static_cast<double>(clamped_bilinear<TestType>(plane, 2, 2, TestType(y), TestType(x)));
  };
  auto padded = [&](double y, double x) {
    return static_cast<double>(zero_padded_bilinear<TestType>(plane, 2, 2, TestType(y), TestType(x)));
  };
  CHECK(clamped(0.5, 0.5) == Approx(2.5));
  CHECK(padded(0.5, 0.5) == Approx(2.5));
  CHECK(clamped(0.25, 0.0) == Approx(1.5));
  CHECK(padded(0.25, 0.0) == Approx(1.5));
  // Within a pixel of the border: the clamped rule moves the point onto the plane.
  CHECK(clamped(-0.5, -0.5) == Approx(1.0));
  CHECK(clamped(1.7, 1.2) == Approx(4.0));
  CHECK(clamped(2.0, 0.0) == Approx(3.0));
  // ... the zero-padded rule weights the missing neighbours as zeros.
  CHECK(padded(-0.5, -0.5) == Approx(0.25));
  CHECK(padded(1.5, 1.5) == Approx(1.0));
  CHECK(padded(1.0, 1.5) == Approx(2.0));
  // A pixel or more outside (and NaN for the clamped rule): zero.
  CHECK(clamped(-1.5, 0.0) == 0.0);
  CHECK(clamped(0.0, 2.5) == 0.0);
  CHECK(clamped(std::nan(""), 0.0) == 0.0);
  CHECK(padded(-1.0, 0.0) == 0.0);
  CHECK(padded(0.0, 2.0) == 0.0);
  CHECK(padded(std::nan(""), 0.0) == 0.0);
}
