// cdist, pdist, pairwise_distance and cosine_similarity
// (distance_composites.cpp) against torch 2.6.
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor xs() { return make({2, 3}, {0.5, -1.5, 2.0, 3.0, 0.25, -0.75}); }
Tensor ys() { return make({2, 3}, {1.0, -1.0, 0.0, 0.5, 0.5, 2.0}); }

}  // namespace

TEST_CASE("pairwise_distance: eps shift, p, keepdim and broadcasting", "[nn]") {
  check_values(call1("aten::pairwise_distance", {tv(xs()), tv(ys())}), {2}, {2.121320724, 3.724915981});
  const Tensor y0 = make({3}, {1.0, -1.0, 0.0});
  check_values(call1("aten::pairwise_distance", {tv(xs()), tv(y0), dv(1.0), dv(1e-6), bv(true)}), {2, 1},
               {2.999999046, 4.000000954});
  check_values(call1("aten::pairwise_distance", {tv(make({3}, {0.5, -1.5, 2.0})), tv(y0)}), {}, {2.121320724});
}

TEST_CASE("cosine_similarity: dims, broadcasting, integer inputs and eps", "[nn]") {
  check_values(call1("aten::cosine_similarity", {tv(xs()), tv(ys())}), {2}, {0.554700196, 0.018993437});
  check_values(call1("aten::cosine_similarity", {tv(xs()), tv(make({1, 3}, {1.0, -1.0, 0.0})), iv(0)}), {3},
               {0.813733459, 0.581238151, 0.0});
  // Integer inputs convert to the common floating type; a zero row divides by eps.
  check_values(call1("aten::cosine_similarity", {tv(make_i64({2, 2}, {1, 2, 0, 0})), tv(make({2, 2}, {2, 1, 1, 1}))}),
               {2}, {0.799999952, 0.0});
  CHECK(error_code_of("aten::cosine_similarity", {tv(make_i64({2}, {1, 2})), tv(make_i64({2}, {1, 2})), iv(0)}) ==
        ErrorCode::BadInput);
}

TEST_CASE("cdist and pdist: checks, then the forward kernels", "[nn]") {
  check_values(call1("aten::cdist", {tv(xs()), tv(ys())}), {2, 2}, {2.121320248, 2.0, 2.474873781, 3.72491622});
  check_values(call1("aten::pdist", {tv(xs()), dv(1.0)}), {1}, {7.0});
  CHECK(error_code_of("aten::cdist", {tv(make({3}, {0, 0, 0})), tv(ys())}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::pdist", {tv(make({3}, {0, 0, 0}))}) == ErrorCode::BadInput);
}

TEST_CASE("pairwise_distance of integers and cosine_similarity along a negative dim", "[nn]") {
  check_values(call1("aten::pairwise_distance", {tv(make_i64({1, 2}, {1, 2})), tv(make_i64({1, 2}, {4, 6}))}), {1},
               {4.999998569});
  check_values(call1("aten::cosine_similarity", {tv(make({2, 2}, {1, 2, 3, 4})), tv(make({2, 2}, {1, 0, 0, 1})), iv(-1)}),
               {2}, {0.44721359, 0.800000012});
}
