// _embedding_bag: all four outputs for sum, mean and max, padding_idx,
// include_last_offset, per-sample weights and errors.
#include "ops/op_test.h"

#include <cmath>
#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

std::vector<Tensor> bag(const std::string& name, std::vector<Value> args) {
  std::vector<Value> out = call(name, std::move(args));
  REQUIRE(out.size() == 4);
  return {out[0].tensor, out[1].tensor, out[2].tensor, out[3].tensor};
}

}  // namespace

namespace {

const Tensor& bag_weight() {
  static const Tensor w = make({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  return w;
}

// Bags {0, 2}, {} and {1, 3, 3}.
Tensor bag_indices() { return make({5}, {0, 2, 1, 3, 3}, DType::Int64); }
Tensor bag_offsets() { return make({3}, {0, 2, 2}, DType::Int64); }

}  // namespace

TEST_CASE("_embedding_bag sum: fast path leaves offset2bag empty", "[indexing]") {
  auto r = bag("aten::_embedding_bag.default", {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets())});
  check_values(r[0], {3, 2}, {6, 8, 0, 0, 17, 20});
  check_values(r[1], {0}, {});
  check_values(r[2], {3}, {0, 0, 0});
  check_values(r[3], {3}, {0, 0, 0});
  CHECK(r[1].dtype() == DType::Int64);
  // float64 weights take the slow path, which fills offset2bag.
  auto d = bag("aten::_embedding_bag.default",
               {tv(bag_weight().to(DType::Float64)), tv(bag_indices()), tv(bag_offsets())});
  check_values(d[0], {3, 2}, {6, 8, 0, 0, 17, 20});
  check_values(d[1], {5}, {0, 0, 2, 2, 2});
  // Per-sample weights scale each row.
  auto s = bag("aten::_embedding_bag.default", {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets()), bv(false), iv(0),
                                                bv(false), tv(make({5}, {1, 0.5, 1, 1, 2}))});
  check_values(s[0], {3, 2}, {3.5, 5, 0, 0, 24, 28});
}

TEST_CASE("_embedding_bag mean and max: all four outputs", "[indexing]") {
  auto mean = bag("aten::_embedding_bag.default",
                  {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets()), bv(false), iv(1)});
  check_values(mean[0], {3, 2}, {3, 4, 0, 0, 17.0 / 3, 20.0 / 3});
  check_values(mean[1], {5}, {0, 0, 2, 2, 2});
  check_values(mean[2], {3}, {2, 0, 3});
  check_values(mean[3], {3}, {2, 0, 3});
  auto max = bag("aten::_embedding_bag.default",
                 {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets()), bv(false), iv(2)});
  check_values(max[0], {3, 2}, {5, 6, 0, 0, 7, 8});
  check_values(max[1], {5}, {0, 0, 2, 2, 2});
  check_values(max[2], {3}, {2, 0, 3});
  check_values(max[3], {3, 2}, {2, 2, 0, 0, 3, 3});
}

TEST_CASE("_embedding_bag padding_idx, include_last_offset, index dtypes and overloads", "[indexing]") {
  // padding_idx 3 drops both 3s from bag 2 and from its size.
  auto padded = bag("aten::_embedding_bag.default", {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets()), bv(false),
                                                     iv(1), bv(false), none(), bv(false), iv(3)});
  check_values(padded[0], {3, 2}, {3, 4, 0, 0, 3, 4});
  check_values(padded[2], {3}, {2, 0, 1});
  // include_last_offset: offsets [0, 2, 5] describe two bags.
  const Tensor last = make({3}, {0, 2, 5}, DType::Int64);
  auto two = bag("aten::_embedding_bag.default",
                 {tv(bag_weight()), tv(bag_indices()), tv(last), bv(false), iv(0), bv(false), none(), bv(true)});
  check_values(two[0], {2, 2}, {6, 8, 17, 20});
  check_values(two[2], {2}, {0, 0});
  // offsets[-1] < len(indices): float32 (fast path) stops the last bag at
  // offsets[-1] for sum and mean; float64 runs it to the end. bag_size counts
  // to the end either way.
  const Tensor short_last = make({3}, {0, 2, 3}, DType::Int64);
  auto mean_fast = bag("aten::_embedding_bag.default",
                       {tv(bag_weight()), tv(bag_indices()), tv(short_last), bv(false), iv(1), bv(false), none(), bv(true)});
  check_values(mean_fast[0], {2, 2}, {3, 4, 1, 4.0 / 3});
  check_values(mean_fast[1], {5}, {0, 0, 1, 1, 1});
  check_values(mean_fast[2], {2}, {2, 3});
  auto mean_slow = bag("aten::_embedding_bag.default", {tv(bag_weight().to(DType::Float64)), tv(bag_indices()),
                                                        tv(short_last), bv(false), iv(1), bv(false), none(), bv(true)});
  check_values(mean_slow[0], {2, 2}, {3, 4, 17.0 / 3, 20.0 / 3});
  // The forward-only form shapes sum's bag_size like offsets.
  auto fwd = bag("aten::_embedding_bag_forward_only.default",
                 {tv(bag_weight()), tv(bag_indices()), tv(last), bv(false), iv(0), bv(false), none(), bv(true)});
  check_values(fwd[0], {2, 2}, {6, 8, 17, 20});
  check_values(fwd[2], {3}, {0, 0, 0});
  // int32 indices and offsets give int32 bookkeeping outputs.
  auto i32 = bag("aten::_embedding_bag.default", {tv(bag_weight()), tv(bag_indices().to(DType::Int32)),
                                                  tv(bag_offsets().to(DType::Int32)), bv(false), iv(1)});
  CHECK(i32[1].dtype() == DType::Int32);
  CHECK(i32[2].dtype() == DType::Int32);
  check_values(i32[0], {3, 2}, {3, 4, 0, 0, 17.0 / 3, 20.0 / 3});
  // embedding_bag.padding_idx wraps a negative padding_idx (-1 -> 3).
  auto composite = bag("aten::embedding_bag.padding_idx", {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets()),
                                                           bv(false), iv(1), bv(false), none(), bv(false), iv(-1)});
  check_values(composite[0], {3, 2}, {3, 4, 0, 0, 3, 4});
  auto plain = bag("aten::embedding_bag.default", {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets())});
  check_values(plain[0], {3, 2}, {6, 8, 0, 0, 17, 20});
  // bfloat16 weights sum in float32.
  auto bf = bag("aten::_embedding_bag.default",
                {tv(bag_weight().to(DType::BFloat16)), tv(bag_indices()), tv(bag_offsets()), bv(false), iv(1)});
  CHECK(bf[0].dtype() == DType::BFloat16);
  check_values(bf[0], {3, 2}, {3, 4, 0, 0, 5.65625, 6.65625});
}

TEST_CASE("_embedding_bag errors", "[indexing]") {
  const std::string op = "aten::_embedding_bag.default";
  CHECK(error_code_of(op, {tv(bag_weight()), tv(bag_indices()), tv(make({2}, {1, 2}, DType::Int64))}) == ErrorCode::BadInput);
  CHECK(error_code_of(op, {tv(bag_weight()), tv(bag_indices()), tv(make({2}, {0, 6}, DType::Int64))}) == ErrorCode::BadInput);
  CHECK(error_code_of(op, {tv(bag_weight()), tv(make({2}, {0, 4}, DType::Int64)), tv(make({1}, {0}, DType::Int64))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of(op, {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets()), bv(false), iv(1), bv(false),
                      tv(make({5}, {1, 1, 1, 1, 1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of(op, {tv(bag_weight()), tv(bag_indices().to(DType::Float32)), tv(bag_offsets())}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::embedding_bag.padding_idx", {tv(bag_weight()), tv(bag_indices()), tv(bag_offsets()), bv(false),
                                                     iv(0), bv(false), none(), bv(false), iv(4)}) == ErrorCode::BadInput);
}
