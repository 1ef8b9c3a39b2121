// Edge cases of the shape, joining, indexing and creation operators that the
// fixtures do not reach. Expected values are small hand-checked ATen results.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ops/op_test.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor f32(const Shape& shape, const std::vector<double>& v) { return make(DType::Float32, shape, v); }
Tensor i64(const Shape& shape, const std::vector<double>& v) { return make(DType::Int64, shape, v); }

// 0, 1, 2, ... as float32 of the given shape.
Tensor iota(const Shape& shape, DType dtype = DType::Float32) {
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return make(dtype, shape, v);
}

}  // namespace

TEST_CASE("cat promotes dtypes, skips legacy empty tensors and checks sizes", "[shape_indexing]") {
  Tensor a = i64({2, 1}, {1, 2});
  Tensor b = f32({2, 2}, {0.5, 1.5, 2.5, 3.5});
  Tensor legacy = Tensor::empty(DType::Float64, {0});
  Tensor out = call1("aten::cat.default", {tl({a, legacy, b}), iv(-1)});
  CHECK(out.dtype() == DType::Float64);  // the skipped tensor still takes part in promotion
  check_values(out, {2, 3}, {1, 0.5, 1.5, 2, 2.5, 3.5});
  CHECK(error_code_of("aten::cat.default", {tl({a, f32({3, 1}, {1, 2, 3})}), iv(1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::cat.default", {tl({Tensor::scalar(DType::Float32, 1)}), iv(0)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::cat.default", {tl({}), iv(0)}) == ErrorCode::BadInput);
}

TEST_CASE("stack inserts the new dim, also at the end", "[shape_indexing]") {
  Tensor a = f32({2}, {1, 2}), b = f32({2}, {3, 4});
  check_values(call1("aten::stack.default", {tl({a, b}), iv(-1)}), {2, 2}, {1, 3, 2, 4});
  CHECK(error_code_of("aten::stack.default", {tl({a, f32({3}, {1, 2, 3})}), iv(0)}) == ErrorCode::BadInput);
}

TEST_CASE("split, split_with_sizes and chunk return views with ATen's piece sizes", "[shape_indexing]") {
  Tensor x = iota({5});
  auto parts = call("aten::split.Tensor", {tv(x), iv(2), iv(0)}).at(0).tensors;
  REQUIRE(parts.size() == 3);
  check_values(parts[2], {1}, {4});
  CHECK(parts[1].storage() == x.storage());
  auto chunks = call("aten::chunk.default", {tv(iota({6})), iv(4), iv(0)}).at(0).tensors;
  CHECK(chunks.size() == 3);  // ceil(6/4) = 2 per piece, so only 3 pieces
  auto empty_chunks = call("aten::chunk.default", {tv(Tensor::empty(DType::Float32, {0, 2})), iv(3), iv(0)}).at(0).tensors;
  CHECK(empty_chunks.size() == 3);
  CHECK(error_code_of("aten::split_with_sizes.default", {tv(x), ints({2, 2}), iv(0)}) == ErrorCode::BadInput);
  auto sections = call("aten::tensor_split.sections", {tv(iota({7})), iv(3), iv(0)}).at(0).tensors;
  REQUIRE(sections.size() == 3);
  CHECK(sections[0].numel() == 3);
  CHECK(sections[2].numel() == 2);
  auto unbound = call("aten::unbind.int", {tv(iota({2, 3})), iv(1)}).at(0).tensors;
  REQUIRE(unbound.size() == 3);
  check_values(unbound[2], {2}, {2, 5});
}

TEST_CASE("flip and roll follow torch's examples, also on non-contiguous input", "[shape_indexing]") {
  Tensor x = iota({2, 3});
  Tensor xt = call1("aten::t.default", {tv(x)});  // [[0,3],[1,4],[2,5]]
  check_values(call1("aten::flip.default", {tv(xt), ints({0})}), {3, 2}, {2, 5, 1, 4, 0, 3});
  CHECK(error_code_of("aten::flip.default", {tv(x), ints({1, -1})}) == ErrorCode::BadInput);
  Tensor y = f32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_values(call1("aten::roll.default", {tv(y), ints({1})}), {4, 2}, {8, 1, 2, 3, 4, 5, 6, 7});
  check_values(call1("aten::roll.default", {tv(y), ints({-1}), ints({0})}), {4, 2}, {3, 4, 5, 6, 7, 8, 1, 2});
  check_values(call1("aten::roll.default", {tv(y), ints({2, 1}), ints({0, 1})}), {4, 2}, {6, 5, 8, 7, 2, 1, 4, 3});
  CHECK(error_code_of("aten::roll.default", {tv(y), ints({1, 2}), ints({0})}) == ErrorCode::BadInput);
}

TEST_CASE("repeat and tile", "[shape_indexing]") {
  Tensor x = f32({2}, {1, 2});
  check_values(call1("aten::repeat.default", {tv(x), ints({2, 2})}), {2, 4}, {1, 2, 1, 2, 1, 2, 1, 2});
  CHECK(call1("aten::repeat.default", {tv(x), ints({0, 3})}).sizes() == Shape{0, 6});
  CHECK(error_code_of("aten::repeat.default", {tv(iota({2, 2})), ints({2})}) == ErrorCode::BadInput);
  check_values(call1("aten::tile.default", {tv(iota({2, 2})), ints({2})}), {2, 4}, {0, 1, 0, 1, 2, 3, 2, 3});
}

TEST_CASE("padding modes, including cropping with negative pads", "[shape_indexing]") {
  Tensor x = f32({1, 4}, {1, 2, 3, 4});
  check_values(call1("aten::constant_pad_nd.default", {tv(x), ints({-1, 2}), dv(9)}), {1, 5}, {2, 3, 4, 9, 9});
  check_values(call1("aten::pad.default", {tv(x), ints({2, 2}), sv("reflect")}), {1, 8}, {3, 2, 1, 2, 3, 4, 3, 2});
  check_values(call1("aten::pad.default", {tv(f32({1, 3}, {1, 2, 3})), ints({2, 1}), sv("replicate")}), {1, 6}, {1, 1, 1, 2, 3, 3});
  check_values(call1("aten::pad.default", {tv(f32({1, 3}, {1, 2, 3})), ints({1, 2}), sv("circular")}), {1, 6}, {3, 1, 2, 3, 1, 2});
  // Circular padding wraps within what is left after cropping.
  check_values(call1("aten::_pad_circular.default", {tv(x), ints({-1, 2})}), {1, 5}, {2, 3, 4, 2, 3});
  CHECK(error_code_of("aten::pad.default", {tv(x), ints({4, 0}), sv("reflect")}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::pad.default", {tv(x), ints({1, 1}), sv("reflect"), dv(1.0)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::constant_pad_nd.default", {tv(x), ints({1, 1, 1})}) == ErrorCode::BadInput);
  // int tensors pad with the value converted like fill_.
  Tensor xi = i64({2}, {5, 6});
  check_values(call1("aten::constant_pad_nd.default", {tv(xi), ints({1, 0}), dv(2.7)}), {3}, {2, 5, 6});
}

TEST_CASE("tril and triu keep the diagonal band, in place too", "[shape_indexing]") {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  check_values(call1("aten::tril.default", {tv(x)}), {2, 3}, {1, 0, 0, 4, 5, 0});
  check_values(call1("aten::triu.default", {tv(x), iv(1)}), {2, 3}, {0, 2, 3, 0, 0, 6});
  check_values(call1("aten::tril.default", {tv(x), iv(-1)}), {2, 3}, {0, 0, 0, 4, 0, 0});
  Tensor xt = x.as_strided({3, 2}, {1, 3}, 0);  // transposed view of x
  call1("aten::triu_.default", {tv(xt)});  // zeroes xt's lower part, which is x's upper part
  check_values(x, {2, 3}, {1, 0, 0, 4, 5, 0});
  CHECK(error_code_of("aten::tril.default", {tv(f32({2}, {1, 2}))}) == ErrorCode::BadInput);
}

TEST_CASE("index.Tensor: None entries, adjacency, masks and negative indices", "[shape_indexing]") {
  Tensor x = iota({3, 4});
  check_values(call1("aten::index.Tensor", {tv(x), optional_tl({i64({2}, {2, -3})})}), {2, 4}, {8, 9, 10, 11, 0, 1, 2, 3});
  check_values(call1("aten::index.Tensor", {tv(x), optional_tl({Tensor(), i64({2}, {1, 3})})}), {3, 2}, {1, 3, 5, 7, 9, 11});
  // Index tensors on dims 0 and 2 are not adjacent: the result dims come first.
  Tensor y = iota({2, 3, 4});
  check_values(call1("aten::index.Tensor", {tv(y), optional_tl({i64({2}, {0, 1}), Tensor(), i64({2}, {1, 2})})}), {2, 3},
        {1, 5, 9, 14, 18, 22});
  // Broadcast index tensors: rows [[0],[2]] with cols [1, 3].
  check_values(call1("aten::index.Tensor", {tv(x), optional_tl({i64({2, 1}, {0, 2}), i64({2}, {1, 3})})}), {2, 2}, {1, 3, 9, 11});
  Tensor mask = make(DType::Bool, {3}, {1, 0, 1});
  check_values(call1("aten::index.Tensor", {tv(x), optional_tl({mask})}), {2, 4}, {0, 1, 2, 3, 8, 9, 10, 11});
  CHECK(error_code_of("aten::index.Tensor", {tv(x), optional_tl({i64({1}, {3})})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::index.Tensor", {tv(x), optional_tl({f32({1}, {0})})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::index.Tensor", {tv(x), optional_tl({make(DType::Bool, {2}, {1, 0})})}) == ErrorCode::BadInput);
}

TEST_CASE("index_put writes the last duplicate, or accumulates them", "[shape_indexing]") {
  Tensor z = f32({3}, {0, 0, 0});
  Tensor idx = i64({3}, {0, 0, 2});
  Tensor v = f32({3}, {1, 2, 3});
  check_values(call1("aten::index_put.default", {tv(z), optional_tl({idx}), tv(v), bv(false)}), {3}, {2, 0, 3});
  check_values(call1("aten::index_put.default", {tv(z), optional_tl({idx}), tv(v), bv(true)}), {3}, {3, 0, 3});
  // In place, with a 0-dim value broadcast over a column of a 2-d tensor.
  Tensor m = iota({2, 2});
  call1("aten::index_put_.default", {tv(m), optional_tl({Tensor(), i64({1}, {1})}), tv(Tensor::scalar(DType::Float32, 7))});
  check_values(m, {2, 2}, {0, 7, 2, 7});
  CHECK(error_code_of("aten::index_put.default", {tv(z), optional_tl({idx}), tv(i64({3}, {1, 2, 3}))}) == ErrorCode::BadInput);
}

TEST_CASE("gather and scatter follow torch's examples and reject bad indices", "[shape_indexing]") {
  Tensor t = f32({2, 2}, {1, 2, 3, 4});
  check_values(call1("aten::gather.default", {tv(t), iv(1), tv(i64({2, 2}, {0, 0, 1, 0}))}), {2, 2}, {1, 1, 4, 3});
  CHECK(error_code_of("aten::gather.default", {tv(t), iv(1), tv(i64({1, 1}, {2}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::gather.default", {tv(t), iv(1), tv(i64({1, 1}, {-1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::gather.default", {tv(t), iv(1), tv(make(DType::Int32, {1, 1}, {0}))}) == ErrorCode::BadInput);

  Tensor src = f32({6}, {1, 2, 3, 4, 5, 6});
  Tensor index = i64({6}, {0, 1, 0, 1, 2, 1});
  Tensor input = f32({4}, {1, 2, 3, 4});
  check_values(call1("aten::scatter_reduce.two", {tv(input), iv(0), tv(index), tv(src), sv("sum")}), {4}, {5, 14, 8, 4});
  check_values(call1("aten::scatter_reduce.two", {tv(input), iv(0), tv(index), tv(src), sv("amax"), bv(false)}), {4}, {3, 6, 5, 4});
  check_values(call1("aten::scatter_reduce.two", {tv(input), iv(0), tv(index), tv(src), sv("mean")}), {4},
        {5.0 / 3, 14.0 / 4, 4, 4});
  // Integer mean rounds down: (1 + 1 + 3) / 3.
  check_values(call1("aten::scatter_reduce.two", {tv(i64({4}, {1, 2, 3, 4})), iv(0), tv(index), tv(i64({6}, {1, 2, 3, 4, 5, 6})),
                                           sv("mean")}),
        {4}, {1, 3, 4, 4});
  Tensor with_nan = f32({2}, {1, NAN});
  check_values(call1("aten::scatter_reduce.two", {tv(f32({1}, {0})), iv(0), tv(i64({2}, {0, 0})), tv(with_nan), sv("amax")}), {1},
        {NAN});
  check_values(call1("aten::scatter_add.default", {tv(f32({3}, {0, 0, 0})), iv(0), tv(i64({2}, {2, 2})), tv(f32({2}, {1, 2}))}), {3},
        {0, 0, 3});
  check_values(call1("aten::scatter.value", {tv(iota({2, 2})), iv(1), tv(i64({2, 1}, {1, 0})), dv(9)}), {2, 2}, {0, 9, 9, 3});
  CHECK(error_code_of("aten::scatter.src", {tv(input), iv(0), tv(index), tv(i64({6}, {1, 2, 3, 4, 5, 6}))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::scatter_reduce.two", {tv(input), iv(0), tv(index), tv(src), sv("max")}) == ErrorCode::BadInput);
  Tensor in_place = f32({4}, {1, 2, 3, 4});
  call1("aten::scatter_add_.default", {tv(in_place), iv(0), tv(index), tv(src)});
  check_values(in_place, {4}, {5, 14, 8, 4});
}

TEST_CASE("index_select, embedding, take and index_add", "[shape_indexing]") {
  Tensor xt = iota({3, 2}).as_strided({2, 3}, {1, 2}, 0);  // [[0,2,4],[1,3,5]]
  check_values(call1("aten::index_select.default", {tv(xt), iv(1), tv(make(DType::Int32, {2}, {2, 0}))}), {2, 2}, {4, 0, 5, 1});
  CHECK(error_code_of("aten::index_select.default", {tv(xt), iv(1), tv(i64({1}, {-1}))}) == ErrorCode::BadInput);

  Tensor weight = iota({4, 2});
  Tensor ids = make(DType::Int32, {2, 1}, {3, 0});
  check_values(call1("aten::embedding.default", {tv(weight), tv(ids)}), {2, 1, 2}, {6, 7, 0, 1});
  CHECK(error_code_of("aten::embedding.default", {tv(weight), tv(f32({1}, {0}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::embedding.default", {tv(weight), tv(i64({1}, {4}))}) == ErrorCode::BadInput);

  check_values(call1("aten::take.default", {tv(iota({2, 3})), tv(i64({2}, {-1, 4}))}), {2}, {5, 4});

  Tensor acc = f32({3, 1}, {1, 1, 1});
  check_values(call1("aten::index_add.default", {tv(acc), iv(0), tv(i64({2}, {2, 2})), tv(f32({2, 1}, {1, 2})), dv(2.0)}), {3, 1},
        {1, 1, 7});
}

TEST_CASE("index_copy_ and index_add_ write into self", "[shape_indexing]") {
  Tensor cache = iota({4, 2});
  Tensor out = call1("aten::index_copy_.default", {tv(cache), iv(0), tv(i64({1}, {2})), tv(f32({1, 2}, {10, 11}))});
  check_values(cache, {4, 2}, {0, 1, 2, 3, 10, 11, 6, 7});
  CHECK(out.storage() == cache.storage());
  // A strided self: the written slice lands in its storage.
  Tensor base = iota({2, 3});
  Tensor view = base.as_strided({3, 2}, {1, 3}, 0);  // [[0, 3], [1, 4], [2, 5]]
  call1("aten::index_copy_.default", {tv(view), iv(0), tv(i64({1}, {1})), tv(f32({1, 2}, {-1, -2}))});
  check_values(base, {2, 3}, {0, -1, 2, 3, -2, 5});
  // A source that is a view of self is read before anything is written.
  Tensor x = iota({3});
  call1("aten::index_copy_.default", {tv(x), iv(0), tv(i64({2}, {1, 2})), tv(x.as_strided({2}, {1}, 0))});
  check_values(x, {3}, {0, 0, 1});
  // A bad index fails before any write.
  Tensor y = iota({3});
  CHECK(error_code_of("aten::index_copy_.default", {tv(y), iv(0), tv(i64({2}, {0, 5})), tv(f32({2}, {9, 9}))}) ==
        ErrorCode::BadInput);
  check_values(y, {3}, {0, 1, 2});
  // Repeated indices accumulate.
  Tensor acc = f32({3}, {1, 1, 1});
  call1("aten::index_add_.default", {tv(acc), iv(0), tv(i64({2}, {2, 2})), tv(f32({2}, {1, 2}))});
  check_values(acc, {3}, {1, 1, 4});
}

TEST_CASE("masked_fill broadcasts, masked_select and nonzero walk in row-major order", "[shape_indexing]") {
  Tensor x = iota({2, 3});
  Tensor mask = make(DType::Bool, {3}, {0, 1, 0});
  check_values(call1("aten::masked_fill.Scalar", {tv(x), tv(mask), dv(-1)}), {2, 3}, {0, -1, 2, 3, -1, 5});
  CHECK(error_code_of("aten::masked_fill.Tensor", {tv(x), tv(mask), tv(f32({1}, {1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::masked_fill.Scalar", {tv(x), tv(iota({3})), dv(1)}) == ErrorCode::BadInput);
  check_values(call1("aten::masked_select.default", {tv(x), tv(mask)}), {2}, {1, 4});
  check_values(call1("aten::nonzero.default", {tv(f32({2, 2}, {0, 1, NAN, 0}))}), {2, 2}, {0, 1, 1, 0});
  CHECK(call1("aten::nonzero.default", {tv(f32({0}, {}))}).sizes() == Shape{0, 1});
}

TEST_CASE("copy_ and the *_scatter ops write into views", "[shape_indexing]") {
  Tensor x = f32({2, 2}, {0, 0, 0, 0});
  Tensor xt = x.as_strided({2, 2}, {1, 2}, 0);
  call1("aten::copy_.default", {tv(xt), tv(i64({2}, {1, 2}))});  // broadcast rows, int -> float
  check_values(x, {2, 2}, {1, 1, 2, 2});
  CHECK(error_code_of("aten::copy_.default", {tv(x), tv(iota({3}))}) == ErrorCode::BadInput);
  check_values(call1("aten::slice_scatter.default", {tv(f32({4}, {0, 0, 0, 0})), tv(f32({2}, {1, 2})), iv(0), iv(1), Value::none(),
                                              iv(2)}),
        {4}, {0, 1, 0, 2});
  check_values(call1("aten::select_scatter.default", {tv(iota({2, 2})), tv(f32({2}, {8, 9})), iv(1), iv(-1)}), {2, 2}, {0, 8, 2, 9});
  check_values(call1("aten::diagonal_scatter.default", {tv(f32({2, 2}, {0, 0, 0, 0})), tv(f32({2}, {1, 2}))}), {2, 2}, {1, 0, 0, 2});
  CHECK(error_code_of("aten::select_scatter.default", {tv(iota({2, 2})), tv(f32({3}, {1, 2, 3})), iv(1), iv(0)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("view-like ops: movedim, unfold, diagonal, narrow, as_strided", "[shape_indexing]") {
  Tensor x = iota({2, 3, 4});
  CHECK(call1("aten::movedim.int", {tv(x), iv(0), iv(-1)}).sizes() == Shape{3, 4, 2});
  Tensor moved = call1("aten::movedim.intlist", {tv(x), ints({0, 1}), ints({2, 0})});
  CHECK(moved.sizes() == Shape{3, 4, 2});
  check_values(call1("aten::unfold.default", {tv(iota({7})), iv(0), iv(2), iv(2)}), {3, 2}, {0, 1, 2, 3, 4, 5});
  check_values(call1("aten::diagonal.default", {tv(iota({3, 3})), iv(1)}), {2}, {1, 5});
  check_values(call1("aten::diagonal.default", {tv(iota({3, 3})), iv(-2)}), {1}, {6});
  Tensor n = call1("aten::narrow.default", {tv(iota({5})), iv(0), iv(-2), iv(2)});
  check_values(n, {2}, {3, 4});
  CHECK(error_code_of("aten::narrow.default", {tv(iota({5})), iv(0), iv(4), iv(2)}) == ErrorCode::BadInput);
  check_values(call1("aten::as_strided.default", {tv(iota({4})), ints({2, 2}), ints({1, 2})}), {2, 2}, {0, 2, 1, 3});
  CHECK(error_code_of("aten::as_strided.default", {tv(iota({4})), ints({2, 2}), ints({2, 2})}) == ErrorCode::BadInput);
}

TEST_CASE("full infers its dtype from the value and checks overflow", "[shape_indexing]") {
  CHECK(call1("aten::full.default", {ints({2}), iv(3)}).dtype() == DType::Int64);
  CHECK(call1("aten::full.default", {ints({2}), bv(true)}).dtype() == DType::Bool);
  CHECK(call1("aten::full.default", {ints({2}), dv(1.5)}).dtype() == DType::Float32);
  CHECK(error_code_of("aten::full.default", {ints({2}), iv(300), dt(DType::Int8)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::full.default", {ints({2}), iv(100000), dt(DType::Float16)}) == ErrorCode::BadInput);
  check_values(call1("aten::full.default", {ints({1}), iv(-1), dt(DType::UInt8)}), {1}, {255});
  CHECK(error_code_of("aten::full.default", {ints({-1}), iv(0)}) == ErrorCode::BadInput);
  CHECK(call1("aten::scalar_tensor.default", {iv(3)}).dtype() == DType::Float32);
  Tensor ints = i64({2}, {0, 0});
  call1("aten::fill_.Scalar", {tv(ints), dv(2.7)});
  check_values(ints, {2}, {2, 2});
}

TEST_CASE("arange lengths and dtypes, linspace and eye", "[shape_indexing]") {
  Tensor a = call1("aten::arange.default", {iv(5)});
  CHECK(a.dtype() == DType::Int64);
  check_values(a, {5}, {0, 1, 2, 3, 4});
  Tensor b = call1("aten::arange.start_step", {dv(0), iv(1), dv(0.3)});
  CHECK(b.dtype() == DType::Float32);
  check_values(b, {4}, {0, 0.3, 0.6, 0.9});
  check_values(call1("aten::arange.start_step", {iv(10), iv(0), iv(-3)}), {4}, {10, 7, 4, 1});
  CHECK(call1("aten::arange.start", {iv(3), iv(3)}).numel() == 0);
  CHECK(error_code_of("aten::arange.start_step", {iv(0), iv(5), iv(0)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::arange.start_step", {iv(0), iv(5), iv(-1)}) == ErrorCode::BadInput);
  check_values(call1("aten::linspace.default", {iv(0), iv(1), iv(5)}), {5}, {0, 0.25, 0.5, 0.75, 1});
  check_values(call1("aten::linspace.default", {iv(0), iv(10), iv(4), dt(DType::Int64)}), {4}, {0, 3, 6, 10});
  check_values(call1("aten::linspace.default", {dv(2.5), iv(7), iv(1)}), {1}, {2.5});
  check_values(call1("aten::eye.m", {iv(2), iv(3)}), {2, 3}, {1, 0, 0, 0, 1, 0});
}

TEST_CASE("*_like ops keep dtype and a permuted layout", "[shape_indexing]") {
  Tensor xt = iota({2, 3}).as_strided({3, 2}, {1, 3}, 0);
  Tensor z = call1("aten::zeros_like.default", {tv(xt)});
  CHECK(z.strides() == Shape{1, 3});
  check_values(z, {3, 2}, {0, 0, 0, 0, 0, 0});
  Tensor f = call1("aten::full_like.default", {tv(i64({2}, {1, 2})), dv(2.5), dt(DType::Float64)});
  CHECK(f.dtype() == DType::Float64);
  check_values(f, {2}, {2.5, 2.5});
  Tensor n = call1("aten::new_ones.default", {tv(i64({1}, {1})), ints({2, 1})});
  CHECK(n.dtype() == DType::Int64);
  check_values(n, {2, 1}, {1, 1});
}

TEST_CASE("meshgrid, broadcast_tensors and one_hot", "[shape_indexing]") {
  Tensor a = f32({2}, {1, 2}), b = f32({3}, {3, 4, 5});
  auto ij = call("aten::meshgrid.indexing", {tl({a, b}), sv("ij")}).at(0).tensors;
  REQUIRE(ij.size() == 2);
  check_values(ij[0], {2, 3}, {1, 1, 1, 2, 2, 2});
  check_values(ij[1], {2, 3}, {3, 4, 5, 3, 4, 5});
  auto xy = call("aten::meshgrid.indexing", {tl({a, b}), sv("xy")}).at(0).tensors;
  check_values(xy[0], {3, 2}, {1, 2, 1, 2, 1, 2});
  check_values(xy[1], {3, 2}, {3, 3, 4, 4, 5, 5});
  auto bt = call("aten::broadcast_tensors.default", {tl({f32({2, 1}, {1, 2}), b})}).at(0).tensors;
  CHECK(bt[0].sizes() == Shape{2, 3});
  CHECK(bt[1].sizes() == Shape{2, 3});
  check_values(call1("aten::one_hot.default", {tv(i64({3}, {0, 2, 1}))}), {3, 3}, {1, 0, 0, 0, 0, 1, 0, 1, 0});
  CHECK(call1("aten::one_hot.default", {tv(i64({1}, {1})), iv(4)}).sizes() == Shape{1, 4});
  CHECK(error_code_of("aten::one_hot.default", {tv(i64({1}, {4})), iv(4)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::one_hot.default", {tv(i64({1}, {-1}))}) == ErrorCode::BadInput);
}
