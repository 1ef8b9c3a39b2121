// Edge cases of the factories and builders in creation/spaced_ranges.cpp and
// creation/diagonal_builders.cpp. Expected values are small hand-checked
// ATen results.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("tril_indices and triu_indices list triangle coordinates row by row", "[composite_creation]") {
  Tensor lower = call1("aten::tril_indices", {iv(3), iv(2)});
  CHECK(lower.dtype() == DType::Int64);
  check_values(lower, {2, 5}, {0, 1, 1, 2, 2, 0, 0, 1, 0, 1});
  check_values(call1("aten::triu_indices", {iv(2), iv(3), iv(1)}), {2, 3}, {0, 0, 1, 1, 2, 2});
  check_values(call1("aten::tril_indices", {iv(0), iv(3)}), {2, 0}, {});
  CHECK(error_code_of("aten::tril_indices", {iv(-1), iv(3)}) == ErrorCode::BadInput);
}

TEST_CASE("logspace and the tensor overloads of linspace", "[composite_creation]") {
  check_values(call1("aten::logspace", {dv(0), dv(2), iv(3)}), {3}, {1, 10, 100});
  check_values(call1("aten::logspace", {dv(1), dv(3), iv(3), dv(2.0)}), {3}, {2, 4, 8});
  check_values(call1("aten::logspace", {dv(3), dv(0), iv(1)}), {1}, {1000});
  Tensor ints = call1("aten::logspace", {iv(0), iv(3), iv(4), dv(2.0), dt(DType::Int64)});
  check_values(ints, {4}, {1, 2, 4, 8});
  check_values(call1("aten::logspace.Tensor_Tensor", {tv(make({}, {0})), tv(make({}, {1})), iv(2)}), {2}, {1, 10});
  check_values(call1("aten::linspace.Tensor_Tensor", {tv(make({}, {0})), tv(make({}, {1})), iv(3)}), {3},
               {0, 0.5, 1});
  check_values(call1("aten::linspace.Scalar_Tensor", {dv(2), tv(make({}, {4})), iv(2)}), {2}, {2, 4});
  CHECK(error_code_of("aten::linspace.Tensor_Tensor", {tv(make({1}, {0})), tv(make({}, {1})), iv(3)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("empty_permuted lays dims out in the given order", "[composite_creation]") {
  Tensor t = call1("aten::empty_permuted", {ints({2, 3, 4}), ints({0, 2, 1})});
  CHECK(t.sizes() == Shape{2, 3, 4});
  CHECK(t.strides() == Shape{12, 1, 3});
  CHECK(error_code_of("aten::empty_permuted", {ints({2, 3}), ints({0, 0})}) == ErrorCode::BadInput);
}

TEST_CASE("diag, diagflat and diag_embed place values on a diagonal", "[composite_creation]") {
  check_values(call1("aten::diag", {tv(make({2}, {1, 2})), iv(1)}), {3, 3}, {0, 1, 0, 0, 0, 2, 0, 0, 0});
  check_values(call1("aten::diag", {tv(make({2, 3}, {1, 2, 3, 4, 5, 6})), iv(-1)}), {1}, {4});
  check_values(call1("aten::diagflat", {tv(make({2, 1}, {1, 2}))}), {2, 2}, {1, 0, 0, 2});
  // out[i, j, i] = x[j, i]
  check_values(call1("aten::diag_embed", {tv(make({2, 2}, {1, 2, 3, 4})), iv(0), iv(0), iv(2)}), {2, 2, 2},
               {1, 0, 3, 0, 0, 2, 0, 4});
  CHECK(error_code_of("aten::diag", {tv(make({1, 1, 1}, {1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::diag_embed", {tv(make({2}, {1, 2})), iv(0), iv(0), iv(-2)}) == ErrorCode::BadInput);
}

TEST_CASE("block_diag, cartesian_prod and combinations", "[composite_creation]") {
  Tensor out = call1("aten::block_diag", {tl({make({}, {7}), make_i64({1, 2}, {1, 2})})});
  CHECK(out.dtype() == DType::Float32);
  check_values(out, {2, 3}, {7, 0, 0, 0, 1, 2});
  CHECK(call1("aten::block_diag", {tl({})}).sizes() == Shape{1, 0});
  check_values(call1("aten::cartesian_prod", {tl({make({2}, {1, 2}), make({2}, {3, 4})})}), {4, 2},
               {1, 3, 1, 4, 2, 3, 2, 4});
  Tensor x = make({3}, {5, 6, 7});
  check_values(call1("aten::combinations", {tv(x)}), {3, 2}, {5, 6, 5, 7, 6, 7});
  check_values(call1("aten::combinations", {tv(make({2}, {5, 6})), iv(2), bv(true)}), {3, 2}, {5, 5, 5, 6, 6, 6});
  CHECK(call1("aten::combinations", {tv(x), iv(4)}).sizes() == Shape{0, 4});
  CHECK(call1("aten::combinations", {tv(x), iv(0)}).sizes() == Shape{0});
}
