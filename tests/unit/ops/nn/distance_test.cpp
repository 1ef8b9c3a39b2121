// _cdist_forward / _pdist_forward: 3-4-5 triangles for every p, batch
// broadcasting, the matrix-product path.
#include "ops/op_test.h"

#include <cmath>
#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("_cdist_forward: every p on 3-4-5 triangles", "[nn]") {
  const Tensor x1 = make({2, 2}, {0, 0, 1, 1});
  const Tensor x2 = make({1, 2}, {3, 4});
  auto cdist = [&](double p) { return call1("aten::_cdist_forward.default", {tv(x1), tv(x2), dv(p), none()}); };
  check_values(cdist(2), {2, 1}, {5, std::sqrt(13.0)});
  check_values(cdist(1), {2, 1}, {7, 5});
  check_values(cdist(INFINITY), {2, 1}, {4, 3});
  check_values(cdist(0), {2, 1}, {2, 2});
  check_values(cdist(3), {2, 1}, {std::cbrt(91.0), std::cbrt(35.0)}, 1e-5);
  // compute_mode 1 forces the matrix-product form; 2 forbids it.
  check_values(call1("aten::_cdist_forward.default", {tv(x1), tv(x2), dv(2), iv(1)}), {2, 1}, {5, std::sqrt(13.0)}, 1e-5);
  check_values(call1("aten::_cdist_forward.default", {tv(x1), tv(x2), dv(2), iv(2)}), {2, 1}, {5, std::sqrt(13.0)});
  // NaN coordinates give NaN distances.
  check_values(call1("aten::_cdist_forward.default", {tv(make({1, 2}, {kNaN, 0})), tv(x2), dv(2), none()}), {1, 1}, {kNaN});
}

TEST_CASE("_cdist_forward: batch broadcasting, empty shapes, dtypes and errors", "[nn]") {
  const Tensor a = make({2, 1, 2}, {0, 0, 6, 8});
  const Tensor b = make({1, 2}, {0, 0});  // no batch dims: broadcast against a's
  check_values(call1("aten::_cdist_forward.default", {tv(a), tv(b), dv(2), none()}), {2, 1, 1}, {0, 10});
  const Tensor c3 = make({1, 3, 2}, {3, 4, 0, 0, 6, 8});
  check_values(call1("aten::_cdist_forward.default", {tv(a), tv(c3), dv(2), none()}), {2, 1, 3}, {5, 0, 10, 5, 10, 0});
  // Rows without columns are at distance 0; no rows give an empty result.
  check_values(call1("aten::_cdist_forward.default", {tv(make({2, 0}, {})), tv(make({3, 0}, {})), dv(2), none()}), {2, 3},
               {0, 0, 0, 0, 0, 0});
  check_values(call1("aten::_cdist_forward.default", {tv(make({0, 2}, {})), tv(b), dv(2), none()}), {0, 1}, {});
  // More than 25 rows take the matrix-product path by default.
  std::vector<double> rows;
  for (int i = 0; i < 30; ++i) rows.insert(rows.end(), {3.0 * i, 4.0 * i});
  const Tensor many = call1("aten::_cdist_forward.default", {tv(make({30, 2}, rows)), tv(b), dv(2), none()});
  REQUIRE(many.sizes() == Shape{30, 1});
  CHECK(many.item_as_double(29) == Approx(145.0).epsilon(1e-6));
  const Tensor d = call1("aten::_cdist_forward.default", {tv(a.to(DType::Float64)), tv(b.to(DType::Float64)), dv(2), none()});
  CHECK(d.dtype() == DType::Float64);
  CHECK(error_code_of("aten::_cdist_forward.default", {tv(make({2}, {0, 0})), tv(b), dv(2), none()}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::_cdist_forward.default", {tv(make({1, 3}, {0, 0, 0})), tv(b), dv(2), none()}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::_cdist_forward.default", {tv(b.to(DType::Int64)), tv(b), dv(2), none()}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::_cdist_forward.default", {tv(b), tv(b), dv(-1), none()}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::_cdist_forward.default", {tv(b), tv(b), dv(2), iv(3)}) == ErrorCode::BadInput);
}

TEST_CASE("_pdist_forward: upper-triangle pairs in row-major order", "[nn]") {
  const Tensor x = make({3, 2}, {0, 0, 3, 4, 6, 8});
  check_values(call1("aten::_pdist_forward.default", {tv(x)}), {3}, {5, 10, 5});
  check_values(call1("aten::_pdist_forward.default", {tv(x), dv(1)}), {3}, {7, 14, 7});
  check_values(call1("aten::_pdist_forward.default", {tv(x), dv(INFINITY)}), {3}, {4, 8, 4});
  check_values(call1("aten::_pdist_forward.default", {tv(x), dv(0)}), {3}, {2, 2, 2});
  check_values(call1("aten::_pdist_forward.default", {tv(make({1, 2}, {1, 2}))}), {0}, {});
  check_values(call1("aten::_pdist_forward.default", {tv(make({3, 0}, {}))}), {3}, {0, 0, 0});
  CHECK(error_code_of("aten::_pdist_forward.default", {tv(make({3}, {0, 1, 2}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::_pdist_forward.default", {tv(x.to(DType::Int32))}) == ErrorCode::BadInput);
}
