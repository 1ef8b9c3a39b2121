// max_unpool2d / max_unpool3d and max_pool2d_with_indices_backward
// (unpool.cpp) against torch 2.6.
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor pooled() { return make({1, 1, 2, 2}, {5.0, 8.0, 9.0, 6.5}); }
Tensor pool_indices() { return make_i64({1, 1, 2, 2}, {1, 6, 12, 11}); }

}  // namespace

TEST_CASE("max_unpool2d: values back at their indices, 3-d and 4-d inputs", "[pool]") {
  check_values(call1("aten::max_unpool2d", {tv(pooled()), tv(pool_indices()), ints({4, 4})}), {1, 1, 4, 4},
               {0, 5, 0, 0, 0, 0, 8, 0, 0, 0, 0, 6.5, 9, 0, 0, 0});
  const Tensor unbatched = call1("aten::max_unpool2d", {tv(make({1, 2, 2}, {5.0, 8.0, 9.0, 6.5})),
                                                        tv(make_i64({1, 2, 2}, {1, 6, 12, 11})), ints({5, 4})});
  check_values(unbatched, {1, 5, 4}, {0, 5, 0, 0, 0, 0, 8, 0, 0, 0, 0, 6.5, 9, 0, 0, 0, 0, 0, 0, 0});
  const Tensor half = call1("aten::max_unpool2d", {tv(pooled().to(DType::Float16)), tv(pool_indices()), ints({4, 4})});
  CHECK(half.dtype() == DType::Float16);
  CHECK(half.item_as_double(12) == 9.0);
  CHECK(error_code_of("aten::max_unpool2d", {tv(pooled()), tv(pool_indices()), ints({1, 1})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_unpool2d", {tv(pooled().to(DType::Int64)), tv(pool_indices()), ints({4, 4})}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_unpool2d", {tv(pooled()), tv(pool_indices().to(DType::Int32)), ints({4, 4})}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_unpool2d", {tv(pooled()), tv(make_i64({1, 1, 4}, {0, 0, 0, 0})), ints({4, 4})}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::max_unpool2d", {tv(make({2, 2}, {0, 0, 0, 0})), tv(make_i64({2, 2}, {0, 0, 0, 0})),
                                             ints({4, 4})}) == ErrorCode::BadInput);
}

TEST_CASE("max_unpool3d: flat indices within the depth x height x width volume", "[pool]") {
  check_values(call1("aten::max_unpool3d", {tv(make({1, 1, 1, 1, 1}, {7})), tv(make_i64({1, 1, 1, 1, 1}, {7})),
                                            ints({2, 2, 3}), ints({2, 2, 2}), ints({0, 0, 0})}),
               {1, 1, 2, 2, 3}, {0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0});
  CHECK(error_code_of("aten::max_unpool3d", {tv(make({1, 1, 1, 1, 1}, {7})), tv(make_i64({1, 1, 1, 1, 1}, {7})),
                                             ints({2, 2, 3}), ints({0, 2, 2}), ints({0, 0, 0})}) == ErrorCode::BadInput);
}

TEST_CASE("max_pool2d_with_indices_backward: gradients summed at the argmax positions", "[pool]") {
  const Tensor x = make({1, 1, 4, 4}, {1, 5, 2, 0, 3, 4, 8, 7, 0.5, 0.25, 6, 6.5, 9, 1.5, 2.5, 3.5});
  check_values(call1("aten::max_pool2d_with_indices_backward",
                     {tv(make({1, 1, 2, 2}, {1, 2, 3, 4})), tv(x), ints({2, 2}), ints({2, 2}), ints({0, 0}),
                      ints({1, 1}), bv(false), tv(pool_indices())}),
               {1, 1, 4, 4}, {0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4, 3, 0, 0, 0});
  // Overlapping windows: one input position collects several gradients.
  const Tensor overlap = make_i64({1, 1, 3, 3}, {1, 6, 6, 5, 6, 6, 12, 10, 11});
  std::vector<double> ones(9, 1.0);
  check_values(call1("aten::max_pool2d_with_indices_backward",
                     {tv(make({1, 1, 3, 3}, ones)), tv(x), ints({2, 2}), ints({1, 1}), ints({0, 0}), ints({1, 1}),
                      bv(false), tv(overlap)}),
               {1, 1, 4, 4}, {0, 1, 0, 0, 0, 1, 4, 0, 0, 0, 1, 1, 1, 0, 0, 0});
  CHECK(error_code_of("aten::max_pool2d_with_indices_backward",
                      {tv(make({1, 1, 2, 2}, {1, 2, 3, 4})), tv(x), ints({2, 2}), ints({2, 2}), ints({0, 0}),
                       ints({1, 1}), bv(false), tv(make_i64({1, 1, 2, 2}, {1, 6, 12, 16}))}) == ErrorCode::BadInput);
}

TEST_CASE("max_unpool2d: of two values at one index the last is kept", "[pool]") {
  check_values(call1("aten::max_unpool2d", {tv(make({1, 1, 1, 2}, {1, 2})), tv(make_i64({1, 1, 1, 2}, {3, 3})),
                                            ints({2, 2})}),
               {1, 1, 2, 2}, {0, 0, 0, 2});
}

TEST_CASE("max_unpool2d reads non-contiguous values and indices", "[pool]") {
  const Tensor values = call1("aten::transpose.int", {tv(make({1, 1, 2, 2}, {5.0, 9.0, 8.0, 6.5})), iv(2), iv(3)});
  const Tensor indices = call1("aten::transpose.int", {tv(make_i64({1, 1, 2, 2}, {1, 12, 6, 11})), iv(2), iv(3)});
  REQUIRE_FALSE(values.is_contiguous());
  check_values(call1("aten::max_unpool2d", {tv(values), tv(indices), ints({4, 4})}), {1, 1, 4, 4},
               {0, 5, 0, 0, 0, 0, 8, 0, 0, 0, 0, 6.5, 9, 0, 0, 0});
}
