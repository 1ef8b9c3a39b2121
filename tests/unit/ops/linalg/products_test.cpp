// Edge cases of the products built from other operators (linalg/products.cpp).
// Expected values are small hand-checked ATen results.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("outer, addr and addbmm", "[products]") {
  Tensor a = make({2}, {1, 2}), b = make({3}, {1, 10, 100});
  check_values(call1("aten::outer", {tv(a), tv(b)}), {2, 3}, {1, 10, 100, 2, 20, 200});
  Tensor self = make({2, 3}, {kNaN, 0, 0, 0, 0, 1});
  check_values(call1("aten::addr", {tv(self), tv(a), tv(b), dv(0), dv(2)}), {2, 3}, {2, 20, 200, 4, 40, 400});
  CHECK(error_code_of("aten::outer", {tv(make({1, 2}, {1, 2})), tv(b)}) == ErrorCode::BadInput);
  Tensor t = make_bool({2}, {true, false}), f = make_bool({2}, {false, true});
  Tensor logical = call1("aten::addr", {tv(make_bool({2, 2}, {false, false, true, false})), tv(t), tv(f)});
  CHECK(logical.dtype() == DType::Bool);
  check_values(logical, {2, 2}, {0, 1, 1, 0});  // self || (vec1[i] && vec2[j])
  Tensor b1 = make({2, 1, 2}, {1, 2, 3, 4}), b2 = make({2, 2, 1}, {1, 1, 10, 10});
  check_values(call1("aten::addbmm", {tv(make({1, 1}, {5})), tv(b1), tv(b2)}), {1, 1}, {5 + 3 + 70});
  check_values(call1("aten::addbmm", {tv(make({1, 1}, {5})), tv(b1), tv(b2), dv(2), dv(0.5)}), {1, 1}, {10 + 36.5});
  Tensor none_batched = call1("aten::addbmm", {tv(make({1}, {5})), tv(make({0, 1, 2}, {})), tv(make({0, 2, 3}, {}))});
  check_values(none_batched, {1, 3}, {5, 5, 5});
  CHECK(error_code_of("aten::addbmm", {tv(make({1, 1}, {5})), tv(b1), tv(make({3, 2, 1}, {1, 1, 1, 1, 1, 1}))}) ==
        ErrorCode::BadInput);
}

TEST_CASE("tensordot, inner, vdot, kron and trace", "[products]") {
  Tensor x = make({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor y = make({3, 2}, {1, 0, 0, 1, 1, 1});
  check_values(call1("aten::tensordot", {tv(x), tv(y), ints({1}), ints({0})}), {2, 2}, {4, 5, 10, 11});
  check_values(call1("aten::tensordot", {tv(x), tv(x), ints({0, 1}), ints({0, 1})}), {}, {91});
  CHECK(error_code_of("aten::tensordot", {tv(x), tv(y), ints({0}), ints({0})}) == ErrorCode::BadInput);
  check_values(call1("aten::inner", {tv(x), tv(make({3}, {1, 1, 1}))}), {2}, {6, 15});
  check_values(call1("aten::inner", {tv(make({}, {2})), tv(x)}), {2, 3}, {2, 4, 6, 8, 10, 12});
  check_values(call1("aten::vdot", {tv(make({2}, {1, 2})), tv(make({2}, {3, 4}))}), {}, {11});
  CHECK(error_code_of("aten::vdot", {tv(make({2}, {1, 2})), tv(make_i64({2}, {3, 4}))}) == ErrorCode::BadInput);
  check_values(call1("aten::kron", {tv(make({2}, {1, 2})), tv(make({2, 2}, {1, 2, 3, 4}))}), {2, 4},
               {1, 2, 2, 4, 3, 4, 6, 8});
  check_values(call1("aten::trace", {tv(x)}), {}, {6});
  CHECK(call1("aten::trace", {tv(make_i64({2, 2}, {1, 2, 3, 4}))}).dtype() == DType::Int64);
  CHECK(error_code_of("aten::trace", {tv(make({2}, {1, 2}))}) == ErrorCode::BadInput);
}

TEST_CASE("cross picks the first dim of size 3 by default", "[products]") {
  Tensor a = make({3, 2}, {1, 0, 0, 1, 0, 0}), b = make({3, 2}, {0, 0, 1, 0, 0, 1});
  check_values(call1("aten::cross", {tv(a), tv(b)}), {3, 2}, {0, 1, 0, 0, 1, 0});
  CHECK(error_code_of("aten::cross", {tv(a), tv(b), iv(1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::cross", {tv(make({2}, {1, 2})), tv(make({2}, {1, 2}))}) == ErrorCode::BadInput);
}
