// Edge cases of the indexing operators built from other indexing operators
// (indexing/composite_indexing.cpp). Expected values are small hand-checked
// ATen results.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("index_reduce combines source slices into self along dim", "[composite_indexing]") {
  Tensor self = make({3, 2}, {1, 1, 2, 2, 3, 3});
  Tensor index = make_i64({3}, {0, 2, 0});
  Tensor source = make({3, 2}, {2, 4, 5, 6, 3, 1});
  check_values(call1("aten::index_reduce", {tv(self), iv(0), tv(index), tv(source), sv("prod")}), {3, 2},
               {6, 4, 2, 2, 15, 18});
  check_values(call1("aten::index_reduce", {tv(self), iv(0), tv(index), tv(source), sv("amax"), bv(false)}), {3, 2},
               {3, 4, 2, 2, 5, 6});
  check_values(call1("aten::index_reduce", {tv(self), iv(0), tv(index), tv(source), sv("mean")}), {3, 2},
               {2, 2, 2, 2, 4, 4.5});
  Tensor ints = make_i64({2}, {5, 0});
  check_values(call1("aten::index_reduce", {tv(ints), iv(0), tv(make_i64({1}, {0})), tv(make_i64({1}, {2})),
                                            sv("mean")}),
               {2}, {3, 0});  // (5 + 2) / 2 floors
  CHECK(error_code_of("aten::index_reduce", {tv(self), iv(0), tv(index), tv(source), sv("sum")}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::index_reduce", {tv(self), iv(0), tv(make_i64({3}, {0, 3, 0})), tv(source), sv("prod")}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::index_reduce", {tv(self), iv(0), tv(make_i64({2}, {0, 1})), tv(source), sv("prod")}) ==
        ErrorCode::BadInput);
}

TEST_CASE("put writes or accumulates at flat positions, negative ones from the end", "[composite_indexing]") {
  Tensor self = make({2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::put", {tv(self), tv(make_i64({2}, {-1, 0})), tv(make({2}, {9, 8}))}), {2, 2},
               {8, 2, 3, 9});
  check_values(call1("aten::put", {tv(self), tv(make_i64({2}, {1, 1})), tv(make({2}, {9, 8})), bv(true)}), {2, 2},
               {1, 19, 3, 4});
  CHECK(error_code_of("aten::put", {tv(self), tv(make_i64({1}, {4})), tv(make({1}, {9}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::put", {tv(self), tv(make_i64({1}, {0})), tv(make({2}, {9, 8}))}) == ErrorCode::BadInput);
}

TEST_CASE("take_along_dim broadcasts outside dim and flattens without one", "[composite_indexing]") {
  Tensor x = make({2, 3}, {10, 30, 20, 60, 40, 50});
  Tensor idx = make_i64({2, 1}, {1, 0});
  check_values(call1("aten::take_along_dim", {tv(x), tv(idx), iv(1)}), {2, 1}, {30, 60});
  check_values(call1("aten::take_along_dim", {tv(x), tv(make_i64({1, 2}, {2, 0})), iv(1)}), {2, 2},
               {20, 10, 50, 60});
  check_values(call1("aten::take_along_dim", {tv(x), tv(make_i64({2}, {5, 0}))}), {2}, {50, 10});
  CHECK(error_code_of("aten::take_along_dim", {tv(x), tv(make_i64({2}, {0, 1})), iv(1)}) == ErrorCode::BadInput);
}

TEST_CASE("nonzero_static pads or cuts, nonzero_numpy splits by dim", "[composite_indexing]") {
  Tensor x = make({2, 2}, {0, 1, 1, 1});
  check_values(call1("aten::nonzero_static", {tv(x), iv(4), iv(-7)}), {4, 2}, {0, 1, 1, 0, 1, 1, -7, -7});
  check_values(call1("aten::nonzero_static", {tv(x), iv(1)}), {1, 2}, {0, 1});
  auto parts = call("aten::nonzero_numpy", {tv(x)}).at(0).tensors;
  REQUIRE(parts.size() == 2);
  check_values(parts[0], {3}, {0, 1, 1});
  check_values(parts[1], {3}, {1, 0, 1});
  auto scalar = call("aten::nonzero_numpy", {tv(make({}, {5}))}).at(0).tensors;
  REQUIRE(scalar.size() == 1);
  check_values(scalar[0], {1}, {0});
}

TEST_CASE("_unsafe_masked_index clamps indices and fills masked-out places", "[composite_indexing]") {
  Tensor x = make({3}, {10, 20, 30});
  Tensor mask = make_bool({3}, {true, false, true});
  Tensor idx = make_i64({3}, {-1, 7, 5});
  check_values(call1("aten::_unsafe_masked_index", {tv(x), tv(mask), optional_tl({idx}), dv(-1)}), {3},
               {10, -1, 30});
  Tensor empty = make({0}, {});
  check_values(call1("aten::_unsafe_masked_index", {tv(empty), tv(mask), optional_tl({idx}), dv(2)}), {3}, {2, 2, 2});
  Tensor acc = call1("aten::_unsafe_masked_index_put_accumulate",
                     {tv(x), tv(mask), optional_tl({make_i64({3}, {-1, 0, 9})}), tv(make({3}, {1, 2, 3}))});
  check_values(acc, {3}, {10, 20, 34});  // -1 -> 2, 9 clamps to 2
}

TEST_CASE("repeat_interleave repeats slices and positions", "[composite_indexing]") {
  Tensor x = make({2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::repeat_interleave.self_int", {tv(x), iv(2)}), {8}, {1, 1, 2, 2, 3, 3, 4, 4});
  check_values(call1("aten::repeat_interleave.self_int", {tv(x), iv(2), iv(0)}), {4, 2}, {1, 2, 1, 2, 3, 4, 3, 4});
  check_values(call1("aten::repeat_interleave.self_Tensor", {tv(x), tv(make_i64({2}, {0, 3})), iv(1)}), {2, 3},
               {2, 2, 2, 4, 4, 4});
  check_values(call1("aten::repeat_interleave.Tensor", {tv(make_i64({3}, {2, 0, 1}))}), {3}, {0, 0, 2});
  CHECK(error_code_of("aten::repeat_interleave.self_int", {tv(x), iv(-1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::repeat_interleave.self_Tensor", {tv(x), tv(make_i64({3}, {1, 1, 1})), iv(0)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("one-argument where gives nonzero's coordinates per dim", "[composite_indexing]") {
  auto parts = call("aten::where", {tv(make_bool({2, 3}, {false, true, false, true, false, true}))}).at(0).tensors;
  REQUIRE(parts.size() == 2);
  check_values(parts[0], {3}, {0, 1, 1});
  check_values(parts[1], {3}, {1, 0, 2});
  auto none = call("aten::where", {tv(make_bool({3}, {false, false, false}))}).at(0).tensors;
  REQUIRE(none.size() == 1);
  check_values(none[0], {0}, {});
}
