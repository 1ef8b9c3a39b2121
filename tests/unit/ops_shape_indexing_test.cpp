// Edge cases of the shape, joining, indexing and creation operators that the
// fixtures do not reach. Expected values are small hand-checked ATen results.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ops/registry.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;

namespace {

// Runs an operator by qualified name; missing trailing arguments take their
// schema defaults (None when there is none).
std::vector<Value> run(const std::string& name, std::vector<Value> args) {
  const OpEntry* op = op_table().find(name);
  REQUIRE(op != nullptr);
  for (size_t i = args.size(); i < op->schema.arguments.size(); ++i) {
    const auto& a = op->schema.arguments[i];
    args.push_back(a.default_value ? *a.default_value : Value::none());
  }
  OpCall call(op->schema, std::move(args), nullptr);
  op->kernel(call);
  return call.outputs;
}

Tensor run1(const std::string& name, std::vector<Value> args) { return run(name, std::move(args)).at(0).tensor; }

Value T(const Tensor& t) { return Value::from_tensor(t); }
Value I(int64_t v) { return Value::from_int(v); }
Value D(double v) { return Value::from_double(v); }
Value B(bool v) { return Value::from_bool(v); }
Value L(std::vector<int64_t> v) { return Value::from_ints(std::move(v)); }
Value S(const char* s) { return Value::from_string(s); }
Value DT(DType d) { return Value::from_dtype(d); }
Value Ts(std::vector<Tensor> ts) { return Value::from_tensors(std::move(ts)); }
Value OptTs(std::vector<Tensor> ts) {
  Value v = Value::from_tensors(std::move(ts));
  v.kind = Value::Kind::OptionalTensorList;
  return v;
}

Tensor make(DType dtype, const Shape& shape, const std::vector<double>& values) {
  Tensor t = Tensor::empty(dtype, shape);
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) {
    Tensor one = Tensor::scalar(dtype, values[i]);
    t.as_strided({}, {}, static_cast<int64_t>(i)).copy_from(one);
  }
  return t;
}
Tensor f32(const Shape& shape, const std::vector<double>& v) { return make(DType::Float32, shape, v); }
Tensor i64(const Shape& shape, const std::vector<double>& v) { return make(DType::Int64, shape, v); }

// 0, 1, 2, ... as float32 of the given shape.
Tensor iota(const Shape& shape, DType dtype = DType::Float32) {
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return make(dtype, shape, v);
}

std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.item_as_double(i));
  return out;
}

void check(const Tensor& t, const Shape& shape, const std::vector<double>& expected) {
  CHECK(t.sizes() == shape);
  std::vector<double> got = values(t);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) CHECK(std::isnan(got[i]));
    else CHECK(got[i] == Approx(expected[i]).margin(1e-6));
  }
}

ErrorCode error_of(const std::string& name, std::vector<Value> args) {
  try {
    run(name, std::move(args));
  } catch (const Error& e) {
    return e.code();
  }
  FAIL("expected " << name << " to throw");
  return ErrorCode::Internal;
}

}  // namespace

TEST_CASE("cat promotes dtypes, skips legacy empty tensors and checks sizes", "[shape_indexing]") {
  Tensor a = i64({2, 1}, {1, 2});
  Tensor b = f32({2, 2}, {0.5, 1.5, 2.5, 3.5});
  Tensor legacy = Tensor::empty(DType::Float64, {0});
  Tensor out = run1("aten::cat.default", {Ts({a, legacy, b}), I(-1)});
  CHECK(out.dtype() == DType::Float64);  // the skipped tensor still takes part in promotion
  check(out, {2, 3}, {1, 0.5, 1.5, 2, 2.5, 3.5});
  CHECK(error_of("aten::cat.default", {Ts({a, f32({3, 1}, {1, 2, 3})}), I(1)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::cat.default", {Ts({Tensor::scalar(DType::Float32, 1)}), I(0)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::cat.default", {Ts({}), I(0)}) == ErrorCode::BadInput);
}

TEST_CASE("stack inserts the new dim, also at the end", "[shape_indexing]") {
  Tensor a = f32({2}, {1, 2}), b = f32({2}, {3, 4});
  check(run1("aten::stack.default", {Ts({a, b}), I(-1)}), {2, 2}, {1, 3, 2, 4});
  CHECK(error_of("aten::stack.default", {Ts({a, f32({3}, {1, 2, 3})}), I(0)}) == ErrorCode::BadInput);
}

TEST_CASE("split, split_with_sizes and chunk return views with ATen's piece sizes", "[shape_indexing]") {
  Tensor x = iota({5});
  auto parts = run("aten::split.Tensor", {T(x), I(2), I(0)}).at(0).tensors;
  REQUIRE(parts.size() == 3);
  check(parts[2], {1}, {4});
  CHECK(parts[1].storage() == x.storage());
  auto chunks = run("aten::chunk.default", {T(iota({6})), I(4), I(0)}).at(0).tensors;
  CHECK(chunks.size() == 3);  // ceil(6/4) = 2 per piece, so only 3 pieces
  auto empty_chunks = run("aten::chunk.default", {T(Tensor::empty(DType::Float32, {0, 2})), I(3), I(0)}).at(0).tensors;
  CHECK(empty_chunks.size() == 3);
  CHECK(error_of("aten::split_with_sizes.default", {T(x), L({2, 2}), I(0)}) == ErrorCode::BadInput);
  auto sections = run("aten::tensor_split.sections", {T(iota({7})), I(3), I(0)}).at(0).tensors;
  REQUIRE(sections.size() == 3);
  CHECK(sections[0].numel() == 3);
  CHECK(sections[2].numel() == 2);
  auto unbound = run("aten::unbind.int", {T(iota({2, 3})), I(1)}).at(0).tensors;
  REQUIRE(unbound.size() == 3);
  check(unbound[2], {2}, {2, 5});
}

TEST_CASE("flip and roll follow torch's examples, also on non-contiguous input", "[shape_indexing]") {
  Tensor x = iota({2, 3});
  Tensor xt = run1("aten::t.default", {T(x)});  // [[0,3],[1,4],[2,5]]
  check(run1("aten::flip.default", {T(xt), L({0})}), {3, 2}, {2, 5, 1, 4, 0, 3});
  CHECK(error_of("aten::flip.default", {T(x), L({1, -1})}) == ErrorCode::BadInput);
  Tensor y = f32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  check(run1("aten::roll.default", {T(y), L({1})}), {4, 2}, {8, 1, 2, 3, 4, 5, 6, 7});
  check(run1("aten::roll.default", {T(y), L({-1}), L({0})}), {4, 2}, {3, 4, 5, 6, 7, 8, 1, 2});
  check(run1("aten::roll.default", {T(y), L({2, 1}), L({0, 1})}), {4, 2}, {6, 5, 8, 7, 2, 1, 4, 3});
  CHECK(error_of("aten::roll.default", {T(y), L({1, 2}), L({0})}) == ErrorCode::BadInput);
}

TEST_CASE("repeat and tile", "[shape_indexing]") {
  Tensor x = f32({2}, {1, 2});
  check(run1("aten::repeat.default", {T(x), L({2, 2})}), {2, 4}, {1, 2, 1, 2, 1, 2, 1, 2});
  CHECK(run1("aten::repeat.default", {T(x), L({0, 3})}).sizes() == Shape{0, 6});
  CHECK(error_of("aten::repeat.default", {T(iota({2, 2})), L({2})}) == ErrorCode::BadInput);
  check(run1("aten::tile.default", {T(iota({2, 2})), L({2})}), {2, 4}, {0, 1, 0, 1, 2, 3, 2, 3});
}

TEST_CASE("padding modes, including cropping with negative pads", "[shape_indexing]") {
  Tensor x = f32({1, 4}, {1, 2, 3, 4});
  check(run1("aten::constant_pad_nd.default", {T(x), L({-1, 2}), D(9)}), {1, 5}, {2, 3, 4, 9, 9});
  check(run1("aten::pad.default", {T(x), L({2, 2}), S("reflect")}), {1, 8}, {3, 2, 1, 2, 3, 4, 3, 2});
  check(run1("aten::pad.default", {T(f32({1, 3}, {1, 2, 3})), L({2, 1}), S("replicate")}), {1, 6}, {1, 1, 1, 2, 3, 3});
  check(run1("aten::pad.default", {T(f32({1, 3}, {1, 2, 3})), L({1, 2}), S("circular")}), {1, 6}, {3, 1, 2, 3, 1, 2});
  // Circular padding wraps within what is left after cropping.
  check(run1("aten::_pad_circular.default", {T(x), L({-1, 2})}), {1, 5}, {2, 3, 4, 2, 3});
  CHECK(error_of("aten::pad.default", {T(x), L({4, 0}), S("reflect")}) == ErrorCode::BadInput);
  CHECK(error_of("aten::pad.default", {T(x), L({1, 1}), S("reflect"), D(1.0)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::constant_pad_nd.default", {T(x), L({1, 1, 1})}) == ErrorCode::BadInput);
  // int tensors pad with the value converted like fill_.
  Tensor xi = i64({2}, {5, 6});
  check(run1("aten::constant_pad_nd.default", {T(xi), L({1, 0}), D(2.7)}), {3}, {2, 5, 6});
}

TEST_CASE("tril and triu keep the diagonal band, in place too", "[shape_indexing]") {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  check(run1("aten::tril.default", {T(x)}), {2, 3}, {1, 0, 0, 4, 5, 0});
  check(run1("aten::triu.default", {T(x), I(1)}), {2, 3}, {0, 2, 3, 0, 0, 6});
  check(run1("aten::tril.default", {T(x), I(-1)}), {2, 3}, {0, 0, 0, 4, 0, 0});
  Tensor xt = x.as_strided({3, 2}, {1, 3}, 0);  // transposed view of x
  run1("aten::triu_.default", {T(xt)});  // zeroes xt's lower part, which is x's upper part
  check(x, {2, 3}, {1, 0, 0, 4, 5, 0});
  CHECK(error_of("aten::tril.default", {T(f32({2}, {1, 2}))}) == ErrorCode::BadInput);
}

TEST_CASE("index.Tensor: None entries, adjacency, masks and negative indices", "[shape_indexing]") {
  Tensor x = iota({3, 4});
  check(run1("aten::index.Tensor", {T(x), OptTs({i64({2}, {2, -3})})}), {2, 4}, {8, 9, 10, 11, 0, 1, 2, 3});
  check(run1("aten::index.Tensor", {T(x), OptTs({Tensor(), i64({2}, {1, 3})})}), {3, 2}, {1, 3, 5, 7, 9, 11});
  // Index tensors on dims 0 and 2 are not adjacent: the result dims come first.
  Tensor y = iota({2, 3, 4});
  check(run1("aten::index.Tensor", {T(y), OptTs({i64({2}, {0, 1}), Tensor(), i64({2}, {1, 2})})}), {2, 3},
        {1, 5, 9, 14, 18, 22});
  // Broadcast index tensors: rows [[0],[2]] with cols [1, 3].
  check(run1("aten::index.Tensor", {T(x), OptTs({i64({2, 1}, {0, 2}), i64({2}, {1, 3})})}), {2, 2}, {1, 3, 9, 11});
  Tensor mask = make(DType::Bool, {3}, {1, 0, 1});
  check(run1("aten::index.Tensor", {T(x), OptTs({mask})}), {2, 4}, {0, 1, 2, 3, 8, 9, 10, 11});
  CHECK(error_of("aten::index.Tensor", {T(x), OptTs({i64({1}, {3})})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::index.Tensor", {T(x), OptTs({f32({1}, {0})})}) == ErrorCode::BadInput);
  CHECK(error_of("aten::index.Tensor", {T(x), OptTs({make(DType::Bool, {2}, {1, 0})})}) == ErrorCode::BadInput);
}

TEST_CASE("index_put writes the last duplicate, or accumulates them", "[shape_indexing]") {
  Tensor z = f32({3}, {0, 0, 0});
  Tensor idx = i64({3}, {0, 0, 2});
  Tensor v = f32({3}, {1, 2, 3});
  check(run1("aten::index_put.default", {T(z), OptTs({idx}), T(v), B(false)}), {3}, {2, 0, 3});
  check(run1("aten::index_put.default", {T(z), OptTs({idx}), T(v), B(true)}), {3}, {3, 0, 3});
  // In place, with a 0-dim value broadcast over a column of a 2-d tensor.
  Tensor m = iota({2, 2});
  run1("aten::index_put_.default", {T(m), OptTs({Tensor(), i64({1}, {1})}), T(Tensor::scalar(DType::Float32, 7))});
  check(m, {2, 2}, {0, 7, 2, 7});
  CHECK(error_of("aten::index_put.default", {T(z), OptTs({idx}), T(i64({3}, {1, 2, 3}))}) == ErrorCode::BadInput);
}

TEST_CASE("gather and scatter follow torch's examples and reject bad indices", "[shape_indexing]") {
  Tensor t = f32({2, 2}, {1, 2, 3, 4});
  check(run1("aten::gather.default", {T(t), I(1), T(i64({2, 2}, {0, 0, 1, 0}))}), {2, 2}, {1, 1, 4, 3});
  CHECK(error_of("aten::gather.default", {T(t), I(1), T(i64({1, 1}, {2}))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::gather.default", {T(t), I(1), T(i64({1, 1}, {-1}))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::gather.default", {T(t), I(1), T(make(DType::Int32, {1, 1}, {0}))}) == ErrorCode::BadInput);

  Tensor src = f32({6}, {1, 2, 3, 4, 5, 6});
  Tensor index = i64({6}, {0, 1, 0, 1, 2, 1});
  Tensor input = f32({4}, {1, 2, 3, 4});
  check(run1("aten::scatter_reduce.two", {T(input), I(0), T(index), T(src), S("sum")}), {4}, {5, 14, 8, 4});
  check(run1("aten::scatter_reduce.two", {T(input), I(0), T(index), T(src), S("amax"), B(false)}), {4}, {3, 6, 5, 4});
  check(run1("aten::scatter_reduce.two", {T(input), I(0), T(index), T(src), S("mean")}), {4},
        {5.0 / 3, 14.0 / 4, 4, 4});
  // Integer mean rounds down: (1 + 1 + 3) / 3.
  check(run1("aten::scatter_reduce.two", {T(i64({4}, {1, 2, 3, 4})), I(0), T(index), T(i64({6}, {1, 2, 3, 4, 5, 6})),
                                           S("mean")}),
        {4}, {1, 3, 4, 4});
  Tensor with_nan = f32({2}, {1, NAN});
  check(run1("aten::scatter_reduce.two", {T(f32({1}, {0})), I(0), T(i64({2}, {0, 0})), T(with_nan), S("amax")}), {1},
        {NAN});
  check(run1("aten::scatter_add.default", {T(f32({3}, {0, 0, 0})), I(0), T(i64({2}, {2, 2})), T(f32({2}, {1, 2}))}), {3},
        {0, 0, 3});
  check(run1("aten::scatter.value", {T(iota({2, 2})), I(1), T(i64({2, 1}, {1, 0})), D(9)}), {2, 2}, {0, 9, 9, 3});
  CHECK(error_of("aten::scatter.src", {T(input), I(0), T(index), T(i64({6}, {1, 2, 3, 4, 5, 6}))}) ==
        ErrorCode::BadInput);
  CHECK(error_of("aten::scatter_reduce.two", {T(input), I(0), T(index), T(src), S("max")}) == ErrorCode::BadInput);
  Tensor in_place = f32({4}, {1, 2, 3, 4});
  run1("aten::scatter_add_.default", {T(in_place), I(0), T(index), T(src)});
  check(in_place, {4}, {5, 14, 8, 4});
}

TEST_CASE("index_select, embedding, take and index_add", "[shape_indexing]") {
  Tensor xt = iota({3, 2}).as_strided({2, 3}, {1, 2}, 0);  // [[0,2,4],[1,3,5]]
  check(run1("aten::index_select.default", {T(xt), I(1), T(make(DType::Int32, {2}, {2, 0}))}), {2, 2}, {4, 0, 5, 1});
  CHECK(error_of("aten::index_select.default", {T(xt), I(1), T(i64({1}, {-1}))}) == ErrorCode::BadInput);

  Tensor weight = iota({4, 2});
  Tensor ids = make(DType::Int32, {2, 1}, {3, 0});
  check(run1("aten::embedding.default", {T(weight), T(ids)}), {2, 1, 2}, {6, 7, 0, 1});
  CHECK(error_of("aten::embedding.default", {T(weight), T(f32({1}, {0}))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::embedding.default", {T(weight), T(i64({1}, {4}))}) == ErrorCode::BadInput);

  check(run1("aten::take.default", {T(iota({2, 3})), T(i64({2}, {-1, 4}))}), {2}, {5, 4});

  Tensor acc = f32({3, 1}, {1, 1, 1});
  check(run1("aten::index_add.default", {T(acc), I(0), T(i64({2}, {2, 2})), T(f32({2, 1}, {1, 2})), D(2.0)}), {3, 1},
        {1, 1, 7});
}

TEST_CASE("masked_fill broadcasts, masked_select and nonzero walk in row-major order", "[shape_indexing]") {
  Tensor x = iota({2, 3});
  Tensor mask = make(DType::Bool, {3}, {0, 1, 0});
  check(run1("aten::masked_fill.Scalar", {T(x), T(mask), D(-1)}), {2, 3}, {0, -1, 2, 3, -1, 5});
  CHECK(error_of("aten::masked_fill.Tensor", {T(x), T(mask), T(f32({1}, {1}))}) == ErrorCode::BadInput);
  CHECK(error_of("aten::masked_fill.Scalar", {T(x), T(iota({3})), D(1)}) == ErrorCode::BadInput);
  check(run1("aten::masked_select.default", {T(x), T(mask)}), {2}, {1, 4});
  check(run1("aten::nonzero.default", {T(f32({2, 2}, {0, 1, NAN, 0}))}), {2, 2}, {0, 1, 1, 0});
  CHECK(run1("aten::nonzero.default", {T(f32({0}, {}))}).sizes() == Shape{0, 1});
}

TEST_CASE("copy_ and the *_scatter ops write into views", "[shape_indexing]") {
  Tensor x = f32({2, 2}, {0, 0, 0, 0});
  Tensor xt = x.as_strided({2, 2}, {1, 2}, 0);
  run1("aten::copy_.default", {T(xt), T(i64({2}, {1, 2}))});  // broadcast rows, int -> float
  check(x, {2, 2}, {1, 1, 2, 2});
  CHECK(error_of("aten::copy_.default", {T(x), T(iota({3}))}) == ErrorCode::BadInput);
  check(run1("aten::slice_scatter.default", {T(f32({4}, {0, 0, 0, 0})), T(f32({2}, {1, 2})), I(0), I(1), Value::none(),
                                              I(2)}),
        {4}, {0, 1, 0, 2});
  check(run1("aten::select_scatter.default", {T(iota({2, 2})), T(f32({2}, {8, 9})), I(1), I(-1)}), {2, 2}, {0, 8, 2, 9});
  check(run1("aten::diagonal_scatter.default", {T(f32({2, 2}, {0, 0, 0, 0})), T(f32({2}, {1, 2}))}), {2, 2}, {1, 0, 0, 2});
  CHECK(error_of("aten::select_scatter.default", {T(iota({2, 2})), T(f32({3}, {1, 2, 3})), I(1), I(0)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("view-like ops: movedim, unfold, diagonal, narrow, as_strided", "[shape_indexing]") {
  Tensor x = iota({2, 3, 4});
  CHECK(run1("aten::movedim.int", {T(x), I(0), I(-1)}).sizes() == Shape{3, 4, 2});
  Tensor moved = run1("aten::movedim.intlist", {T(x), L({0, 1}), L({2, 0})});
  CHECK(moved.sizes() == Shape{3, 4, 2});
  check(run1("aten::unfold.default", {T(iota({7})), I(0), I(2), I(2)}), {3, 2}, {0, 1, 2, 3, 4, 5});
  check(run1("aten::diagonal.default", {T(iota({3, 3})), I(1)}), {2}, {1, 5});
  check(run1("aten::diagonal.default", {T(iota({3, 3})), I(-2)}), {1}, {6});
  Tensor n = run1("aten::narrow.default", {T(iota({5})), I(0), I(-2), I(2)});
  check(n, {2}, {3, 4});
  CHECK(error_of("aten::narrow.default", {T(iota({5})), I(0), I(4), I(2)}) == ErrorCode::BadInput);
  check(run1("aten::as_strided.default", {T(iota({4})), L({2, 2}), L({1, 2})}), {2, 2}, {0, 2, 1, 3});
  CHECK(error_of("aten::as_strided.default", {T(iota({4})), L({2, 2}), L({2, 2})}) == ErrorCode::BadInput);
}

TEST_CASE("full infers its dtype from the value and checks overflow", "[shape_indexing]") {
  CHECK(run1("aten::full.default", {L({2}), I(3)}).dtype() == DType::Int64);
  CHECK(run1("aten::full.default", {L({2}), B(true)}).dtype() == DType::Bool);
  CHECK(run1("aten::full.default", {L({2}), D(1.5)}).dtype() == DType::Float32);
  CHECK(error_of("aten::full.default", {L({2}), I(300), DT(DType::Int8)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::full.default", {L({2}), I(100000), DT(DType::Float16)}) == ErrorCode::BadInput);
  check(run1("aten::full.default", {L({1}), I(-1), DT(DType::UInt8)}), {1}, {255});
  CHECK(error_of("aten::full.default", {L({-1}), I(0)}) == ErrorCode::BadInput);
  CHECK(run1("aten::scalar_tensor.default", {I(3)}).dtype() == DType::Float32);
  Tensor ints = i64({2}, {0, 0});
  run1("aten::fill_.Scalar", {T(ints), D(2.7)});
  check(ints, {2}, {2, 2});
}

TEST_CASE("arange lengths and dtypes, linspace and eye", "[shape_indexing]") {
  Tensor a = run1("aten::arange.default", {I(5)});
  CHECK(a.dtype() == DType::Int64);
  check(a, {5}, {0, 1, 2, 3, 4});
  Tensor b = run1("aten::arange.start_step", {D(0), I(1), D(0.3)});
  CHECK(b.dtype() == DType::Float32);
  check(b, {4}, {0, 0.3, 0.6, 0.9});
  check(run1("aten::arange.start_step", {I(10), I(0), I(-3)}), {4}, {10, 7, 4, 1});
  CHECK(run1("aten::arange.start", {I(3), I(3)}).numel() == 0);
  CHECK(error_of("aten::arange.start_step", {I(0), I(5), I(0)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::arange.start_step", {I(0), I(5), I(-1)}) == ErrorCode::BadInput);
  check(run1("aten::linspace.default", {I(0), I(1), I(5)}), {5}, {0, 0.25, 0.5, 0.75, 1});
  check(run1("aten::linspace.default", {I(0), I(10), I(4), DT(DType::Int64)}), {4}, {0, 3, 6, 10});
  check(run1("aten::linspace.default", {D(2.5), I(7), I(1)}), {1}, {2.5});
  check(run1("aten::eye.m", {I(2), I(3)}), {2, 3}, {1, 0, 0, 0, 1, 0});
}

TEST_CASE("*_like ops keep dtype and a permuted layout", "[shape_indexing]") {
  Tensor xt = iota({2, 3}).as_strided({3, 2}, {1, 3}, 0);
  Tensor z = run1("aten::zeros_like.default", {T(xt)});
  CHECK(z.strides() == Shape{1, 3});
  check(z, {3, 2}, {0, 0, 0, 0, 0, 0});
  Tensor f = run1("aten::full_like.default", {T(i64({2}, {1, 2})), D(2.5), DT(DType::Float64)});
  CHECK(f.dtype() == DType::Float64);
  check(f, {2}, {2.5, 2.5});
  Tensor n = run1("aten::new_ones.default", {T(i64({1}, {1})), L({2, 1})});
  CHECK(n.dtype() == DType::Int64);
  check(n, {2, 1}, {1, 1});
}

TEST_CASE("meshgrid, broadcast_tensors and one_hot", "[shape_indexing]") {
  Tensor a = f32({2}, {1, 2}), b = f32({3}, {3, 4, 5});
  auto ij = run("aten::meshgrid.indexing", {Ts({a, b}), S("ij")}).at(0).tensors;
  REQUIRE(ij.size() == 2);
  check(ij[0], {2, 3}, {1, 1, 1, 2, 2, 2});
  check(ij[1], {2, 3}, {3, 4, 5, 3, 4, 5});
  auto xy = run("aten::meshgrid.indexing", {Ts({a, b}), S("xy")}).at(0).tensors;
  check(xy[0], {3, 2}, {1, 2, 1, 2, 1, 2});
  check(xy[1], {3, 2}, {3, 3, 4, 4, 5, 5});
  auto bt = run("aten::broadcast_tensors.default", {Ts({f32({2, 1}, {1, 2}), b})}).at(0).tensors;
  CHECK(bt[0].sizes() == Shape{2, 3});
  CHECK(bt[1].sizes() == Shape{2, 3});
  check(run1("aten::one_hot.default", {T(i64({3}, {0, 2, 1}))}), {3, 3}, {1, 0, 0, 0, 0, 1, 0, 1, 0});
  CHECK(run1("aten::one_hot.default", {T(i64({1}, {1})), I(4)}).sizes() == Shape{1, 4});
  CHECK(error_of("aten::one_hot.default", {T(i64({1}, {4})), I(4)}) == ErrorCode::BadInput);
  CHECK(error_of("aten::one_hot.default", {T(i64({1}, {-1}))}) == ErrorCode::BadInput);
}
