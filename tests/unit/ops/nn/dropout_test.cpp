// Dropout's forms: the identity when not training, zero times the input at
// p = 1, and in training a mask kept with probability 1 - p and scaled by
// 1 / (1 - p) (per channel for the feature forms; the alpha forms keep mean
// 0 and variance 1 of a standard normal input). The draws are pt2web's, so
// only properties every seed must have are checked.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("dropout is the identity in eval mode and zeroes at p = 1", "[ops][dropout]") {
  Tensor x = make({2}, {1, kInf});
  CHECK(call1("aten::dropout", {tv(x), dv(0.5), bv(false)}).storage() == x.storage());
  CHECK(error_code_of("aten::dropout", {tv(x), dv(1.5), bv(false)}) == ErrorCode::BadInput);
  std::vector<double> zeroed = values_of(call1("aten::dropout", {tv(x), dv(1.0), bv(true)}));
  CHECK(zeroed[0] == 0);
  CHECK(std::isnan(zeroed[1]));
  auto out = call("aten::native_dropout", {tv(x), dv(0.5), bv(false)});
  CHECK(values_of(out.at(0).tensor) == std::vector<double>({1, kInf}));
  CHECK(out.at(0).tensor.storage() != x.storage());
  CHECK(out.at(1).tensor.dtype() == DType::Bool);
  CHECK(values_of(out.at(1).tensor) == std::vector<double>({1, 1}));
}

TEST_CASE("dropout in training keeps 1 - p of the values, scaled by 1 / (1 - p)", "[ops][dropout]") {
  RandomRun run(3);
  const int64_t n = 20000;
  Tensor x = make({n}, std::vector<double>(n, 2.0));
  std::vector<double> y = values_of(call("aten::dropout", {tv(x), dv(0.25), bv(true)}, &run).at(0).tensor);
  int64_t kept = 0;
  for (double v : y) {
    REQUIRE((v == 0 || std::abs(v - 2.0 / 0.75) < 1e-6));
    kept += v != 0;
  }
  CHECK(static_cast<double>(kept) / n == Approx(0.75).margin(0.015));
  auto native = call("aten::native_dropout", {tv(x), dv(0.25), none()}, &run);  // train=None trains
  std::vector<double> out = values_of(native.at(0).tensor), mask = values_of(native.at(1).tensor);
  CHECK(native.at(1).tensor.dtype() == DType::Bool);
  for (int64_t i = 0; i < n; ++i) REQUIRE(out[i] == Approx(mask[i] * 2.0 / 0.75));
  CHECK(error_code_of("aten::dropout", {tv(make_i64({2}, {1, 2})), dv(0.5), bv(true)}) == ErrorCode::BadInput);
}

TEST_CASE("feature dropout drops whole channels; alpha dropout keeps the moments", "[ops][dropout]") {
  RandomRun run(5);
  Tensor x = make({4, 8, 3}, std::vector<double>(96, 1.0));
  std::vector<double> y = values_of(call("aten::feature_dropout", {tv(x), dv(0.5), bv(true)}, &run).at(0).tensor);
  for (int c = 0; c < 32; ++c)
    for (int k = 1; k < 3; ++k) REQUIRE(y[c * 3 + k] == y[c * 3]);
  CHECK(error_code_of("aten::feature_dropout", {tv(make({3}, {1, 2, 3})), dv(0.5), bv(true)}) ==
        ErrorCode::BadInput);

  const int64_t n = 40000;
  Tensor normal = call("aten::randn", {ints({n}), dt(DType::Float64)}, &run).at(0).tensor;
  std::vector<double> z = values_of(call("aten::alpha_dropout", {tv(normal), dv(0.3), bv(true)}, &run).at(0).tensor);
  double mean = 0, square = 0;
  for (double v : z) mean += v / n;
  for (double v : z) square += (v - mean) * (v - mean) / n;
  CHECK(mean == Approx(0).margin(0.03));
  CHECK(square == Approx(1).margin(0.05));

  Tensor inplace = make({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor result = call("aten::dropout_", {tv(inplace), dv(0.5), bv(true)}, &run).at(0).tensor;
  CHECK(result.storage() == inplace.storage());
}
