// Edge cases of the shape operators built from other shape operators
// (shape/view_compositions.cpp, splitting.cpp, resize.cpp). Expected values
// are small hand-checked ATen results.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor iota(const Shape& shape, DType dtype = DType::Float32) {
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return make(dtype, shape, v);
}

}  // namespace

TEST_CASE("_copy variants return fresh contiguous copies of their view", "[view_compositions]") {
  Tensor x = iota({2, 3});
  Tensor t = call1("aten::t_copy", {tv(x)});
  CHECK(t.is_contiguous());
  CHECK(t.storage() != x.storage());
  check_values(t, {3, 2}, {0, 3, 1, 4, 2, 5});
  check_values(call1("aten::transpose_copy.int", {tv(x), iv(0), iv(-1)}), {3, 2}, {0, 3, 1, 4, 2, 5});
  check_values(call1("aten::expand_copy", {tv(iota({1, 2})), ints({3, 2})}), {3, 2}, {0, 1, 0, 1, 0, 1});
  check_values(call1("aten::diagonal_copy", {tv(iota({3, 3})), iv(1)}), {2}, {1, 5});
  check_values(call1("aten::squeeze_copy.dim", {tv(iota({1, 2})), iv(0)}), {2}, {0, 1});
  auto parts = call("aten::split_with_sizes_copy", {tv(iota({5})), ints({2, 3})}).at(0).tensors;
  REQUIRE(parts.size() == 2);
  check_values(parts[1], {3}, {2, 3, 4});
  CHECK(parts[1].storage_offset() == 0);
  // The view's own checks apply.
  CHECK(error_code_of("aten::view_copy", {tv(x), ints({4})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::permute_copy", {tv(x), ints({0})}) == ErrorCode::BadInput);
}

TEST_CASE("mT, mH, matrix_H and numpy_T transpose as ATen does", "[view_compositions]") {
  Tensor x = iota({2, 1, 3});
  check_values(call1("aten::mT", {tv(x)}), {2, 3, 1}, {0, 1, 2, 3, 4, 5});
  check_values(call1("aten::numpy_T", {tv(x)}), {3, 1, 2}, {0, 3, 1, 4, 2, 5});
  CHECK(error_code_of("aten::mH", {tv(iota({3}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::matrix_H", {tv(x)}) == ErrorCode::BadInput);
}

TEST_CASE("rot90 turns counter-clockwise for any k and checks its dims", "[view_compositions]") {
  Tensor x = iota({2, 2});  // [[0, 1], [2, 3]]
  check_values(call1("aten::rot90", {tv(x), iv(1)}), {2, 2}, {1, 3, 0, 2});
  check_values(call1("aten::rot90", {tv(x), iv(-1)}), {2, 2}, {2, 0, 3, 1});
  check_values(call1("aten::rot90", {tv(x), iv(6)}), {2, 2}, {3, 2, 1, 0});
  check_values(call1("aten::rot90", {tv(x), iv(4)}), {2, 2}, {0, 1, 2, 3});
  CHECK(error_code_of("aten::rot90", {tv(x), iv(1), ints({0, 0})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::rot90", {tv(x), iv(1), ints({0, -2})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::rot90", {tv(iota({3})), iv(1)}) == ErrorCode::BadInput);
  check_values(call1("aten::fliplr", {tv(iota({2, 3}))}), {2, 3}, {2, 1, 0, 5, 4, 3});
  check_values(call1("aten::flipud", {tv(iota({3}))}), {3}, {2, 1, 0});
  CHECK(error_code_of("aten::fliplr", {tv(iota({3}))}) == ErrorCode::BadInput);
}

TEST_CASE("sum_to_size sums leading and size-1 dims", "[view_compositions]") {
  Tensor x = iota({2, 2, 3});
  check_values(call1("aten::sum_to_size", {tv(x), ints({2, 1})}), {2, 1}, {24, 42});
  Tensor same = call1("aten::sum_to_size", {tv(x), ints({2, 2, 3})});
  CHECK(same.storage() == x.storage());
  CHECK(error_code_of("aten::sum_to_size", {tv(x), ints({2})}) == ErrorCode::BadInput);
  Tensor full = call1("aten::sum_to_size", {tv(make_bool({}, {true})), ints({})});  // a full sum, as sum's dtype
  CHECK(full.dtype() == DType::Int64);
  check_values(full, {}, {1});
}

TEST_CASE("hsplit, vsplit and dsplit pick their dim and check divisibility", "[splitting]") {
  auto h = call("aten::hsplit.int", {tv(iota({2, 4})), iv(2)}).at(0).tensors;
  REQUIRE(h.size() == 2);
  check_values(h[1], {2, 2}, {2, 3, 6, 7});
  auto h1 = call("aten::hsplit.int", {tv(iota({4})), iv(2)}).at(0).tensors;
  check_values(h1[1], {2}, {2, 3});
  CHECK(error_code_of("aten::hsplit.int", {tv(iota({2, 4})), iv(3)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::vsplit.int", {tv(iota({4})), iv(2)}) == ErrorCode::BadInput);
  auto d = call("aten::dsplit.array", {tv(iota({1, 1, 4})), ints({1, 3})}).at(0).tensors;
  REQUIRE(d.size() == 3);
  check_values(d[1], {1, 1, 2}, {1, 2});
}

TEST_CASE("column_stack and _chunk_cat", "[splitting]") {
  Tensor a = iota({2}), b = iota({2, 2});
  check_values(call1("aten::column_stack", {tl({a, b})}), {2, 3}, {0, 0, 1, 1, 2, 3});
  // [5] in 2 chunks pads to 6: rows [0 1 2], [3 4 0]; [2, 2] along dim 0 as [2, 2].
  Tensor x = iota({5}), y = iota({2, 1});
  check_values(call1("aten::_chunk_cat", {tl({x}), iv(0), iv(2)}), {2, 3}, {0, 1, 2, 3, 4, 0});
  check_values(call1("aten::_chunk_cat", {tl({iota({3, 2}), y}), iv(0), iv(2)}), {2, 5}, {0, 1, 2, 3, 0, 4, 5, 0, 0, 1});
  CHECK(error_code_of("aten::_chunk_cat", {tl({x}), iv(0), iv(0)}) == ErrorCode::BadInput);
}

TEST_CASE("resize_ keeps the storage prefix and grows with zeros", "[resize]") {
  Tensor x = iota({2, 3});
  check_values(call1("aten::resize_", {tv(x), ints({4})}), {4}, {0, 1, 2, 3});
  check_values(call1("aten::resize", {tv(x), ints({2, 4})}), {2, 4}, {0, 1, 2, 3, 4, 5, 0, 0});
  check_values(call1("aten::resize_as_", {tv(x), tv(iota({1, 2}))}), {1, 2}, {0, 1});
  CHECK(error_code_of("aten::resize_", {tv(x), ints({-1})}) == ErrorCode::BadInput);
}
