// atan2.out: written into out, or replacing an out of another shape.
#include "ops/op_test.h"

#include <cmath>
#include <limits>

#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("atan2.out writes into out, or replaces an out of another shape", "[pointwise]") {
  const Tensor y = make({2}, {1, -1});
  const Tensor x = make({2}, {1, 0});
  const Tensor out = Tensor::empty(DType::Float64, {2});
  const Tensor r = call1("aten::atan2.out", {tv(y), tv(x), tv(out)});
  CHECK(r.storage() == out.storage());
  CHECK(r.dtype() == DType::Float64);
  check_values(out, {2}, {M_PI / 4, -M_PI / 2});
  // Integer inputs compute in float32; a broadcast result replaces a [0] out.
  const Tensor grown = call1("aten::atan2.out", {tv(make({2, 1}, {0, 1}, DType::Int64)), tv(make({1}, {1}, DType::Int64)),
                                                tv(Tensor::empty(DType::Float32, {0}))});
  check_values(grown, {2, 1}, {0, M_PI / 4});
  CHECK(error_code_of("aten::atan2.out", {tv(y), tv(x), tv(Tensor::empty(DType::Int64, {2}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::atan2.out", {tv(y), tv(x), tv(Tensor::empty(DType::Int64, {3}))}) == ErrorCode::BadInput);
}
