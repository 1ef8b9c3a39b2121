// fractional_max_pool2d / fractional_max_pool3d (fractional_pool.cpp)
// against torch 2.6 with given samples.
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

// (arange(n) * factor) % modulus, reshaped.
Tensor pattern(const Shape& shape, int factor, int modulus, DType dtype) {
  std::vector<double> v;
  for (int64_t i = 0; i < shape_numel(shape); ++i) v.push_back(static_cast<double>((i * factor) % modulus));
  return make(shape, v, dtype);
}

const std::vector<double> kOut2d = {20, 20, 19, 22, 21, 18, 21, 20, 22, 19, 18, 15, 20, 22, 22, 19, 21, 21};
const std::vector<double> kIndices2d = {8, 8, 3, 18, 13, 21, 36, 31, 41, 7, 2, 10, 12, 22, 22, 30, 40, 40};

}  // namespace

TEST_CASE("fractional_max_pool2d: interval starts from the samples, width sample first", "[pool]") {
  for (DType dtype : {DType::Float32, DType::Float16}) {
    const Tensor x = pattern({1, 2, 7, 6}, 37, 23, dtype);
    const Tensor u = make({1, 2, 2}, {0.3, 0.8, 0.55, 0.1}, dtype);
    const std::vector<Value> out = call("aten::fractional_max_pool2d", {tv(x), ints({2, 3}), ints({3, 3}), tv(u)});
    check_values(out[0].tensor, {1, 2, 3, 3}, kOut2d);
    check_values(out[1].tensor, {1, 2, 3, 3}, kIndices2d);
  }
  const Tensor x = pattern({1, 1, 4, 4}, 1, 16, DType::Float32);
  CHECK(error_code_of("aten::fractional_max_pool2d", {tv(x), ints({2, 2}), ints({4, 3}), tv(make({1, 1, 2}, {0, 0}))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::fractional_max_pool2d", {tv(x), ints({2, 2}), ints({2, 2}), tv(make({1, 2, 2}, {0, 0, 0, 0}))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::fractional_max_pool2d",
                      {tv(x), ints({2, 2}), ints({2, 2}), tv(make({1, 1, 2}, {0, 0}, DType::Float64))}) ==
        ErrorCode::BadInput);
}

TEST_CASE("fractional_max_pool3d: an unbatched input, depth-height-width samples", "[pool]") {
  const Tensor x = pattern({1, 5, 4, 6}, 29, 31, DType::Float64);
  const Tensor u = make({1, 1, 3}, {0.9, 0.2, 0.45}, DType::Float64);
  const std::vector<Value> out = call("aten::fractional_max_pool3d", {tv(x), ints({2, 2, 3}), ints({2, 2, 2}), tv(u)});
  check_values(out[0].tensor, {1, 2, 2, 2}, {29, 27, 26, 30, 30, 24, 30, 29});
  check_values(out[1].tensor, {1, 2, 2, 2}, {1, 33, 18, 16, 78, 81, 109, 94});
  // The pool may not reach the last input row in 3-d.
  CHECK(error_code_of("aten::fractional_max_pool3d",
                      {tv(make({1, 4, 4, 4}, std::vector<double>(64, 0.0))), ints({2, 2, 2}), ints({3, 2, 2}),
                       tv(make({1, 1, 3}, {0, 0, 0}))}) == ErrorCode::BadInput);
}
