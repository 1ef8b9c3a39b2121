// Normalization on hand-checkable inputs: batch norm in training (running
// statistics updated in place with the unbiased variance) and evaluation,
// the functional and legit forms, layer/group/instance/rms norm, dtypes of
// the saved statistics, and the shape and dtype errors ATen raises.
#include "ops/op_test.h"

#include <cmath>

using namespace pt2web;
using namespace pt2web::op_test;

namespace {
// (x - 2.5) / sqrt(1.25) for x = 1..4.
std::vector<double> standardized_1to4() {
  std::vector<double> v;
  for (double x : {1.0, 2.0, 3.0, 4.0}) v.push_back((x - 2.5) / std::sqrt(1.25));
  return v;
}
}  // namespace

TEST_CASE("batch_norm training updates running stats in place", "[normalization]") {
  Tensor x = make({4, 1}, {1, 2, 3, 4});
  Tensor rm = make({1}, {0}), rv = make({1}, {1});
  Tensor out = call1("aten::batch_norm.default", {tv(x), none(), none(), tv(rm), tv(rv), bv(true), dv(0.1), dv(0.0), bv(true)});
  check_values(out, {4, 1}, standardized_1to4());
  check_values(rm, {1}, {0.25});
  check_values(rv, {1}, {0.1 * 5.0 / 3.0 + 0.9});  // unbiased variance 5/3
}

TEST_CASE("batch_norm evaluation uses running stats and the affine parameters", "[normalization]") {
  Tensor x = make({1, 2, 1}, {3, 5});
  Tensor rm = make({2}, {1, 1}), rv = make({2}, {4, 16});
  Tensor w = make({2}, {2, 1}), b = make({2}, {1, 0});
  check_values(call1("aten::batch_norm.default", {tv(x), tv(w), tv(b), tv(rm), tv(rv), bv(false), dv(0.1), dv(0.0), bv(true)}),
               {1, 2, 1}, {3, 1});
  auto legit = call("aten::_native_batch_norm_legit_no_training.default",
                        {tv(x), tv(w), tv(b), tv(rm), tv(rv), dv(0.1), dv(0.0)});
  REQUIRE(legit.size() == 3);
  check_values(legit[0].tensor, {1, 2, 1}, {3, 1});
  CHECK(legit[1].tensor.numel() == 0);
  check_values(rm, {2}, {1, 1});  // evaluation leaves the statistics alone
}

TEST_CASE("functional batch norm returns new running stats and mutates nothing", "[normalization]") {
  Tensor x = make({4, 1}, {1, 2, 3, 4});
  Tensor rm = make({1}, {0}), rv = make({1}, {1});
  auto out = call("aten::_native_batch_norm_legit_functional.default",
                      {tv(x), none(), none(), tv(rm), tv(rv), bv(true), dv(0.1), dv(0.0)});
  REQUIRE(out.size() == 5);
  check_values(out[0].tensor, {4, 1}, standardized_1to4());
  check_values(out[1].tensor, {1}, {2.5});
  check_values(out[2].tensor, {1}, {1.0 / std::sqrt(1.25)});
  check_values(out[3].tensor, {1}, {0.25});
  check_values(out[4].tensor, {1}, {0.1 * 5.0 / 3.0 + 0.9});
  check_values(rm, {1}, {0});
  check_values(rv, {1}, {1});
  // The in-place legit form writes the same values into the given tensors.
  call("aten::_native_batch_norm_legit.default", {tv(x), none(), none(), tv(rm), tv(rv), bv(true), dv(0.1), dv(0.0)});
  check_values(rm, {1}, {0.25});
  auto no_stats = call("aten::_native_batch_norm_legit.no_stats", {tv(x), none(), none(), bv(true), dv(0.1), dv(0.0)});
  check_values(no_stats[0].tensor, {4, 1}, standardized_1to4());
}

TEST_CASE("layer_norm normalizes trailing dims and reports mean/rstd", "[normalization]") {
  Tensor x = make({2, 4}, {1, 2, 3, 4, 2, 4, 6, 8});
  auto out = call("aten::native_layer_norm.default", {tv(x), ints({4}), none(), none(), dv(0.0)});
  std::vector<double> want = standardized_1to4();
  std::vector<double> both = want;
  both.insert(both.end(), want.begin(), want.end());
  check_values(out[0].tensor, {2, 4}, both);
  check_values(out[1].tensor, {2, 1}, {2.5, 5});
  check_values(out[2].tensor, {2, 1}, {1 / std::sqrt(1.25), 1 / std::sqrt(5.0)});
  Tensor w = make({4}, {1, 1, 2, 2}), b = make({4}, {0, 1, 0, 1});
  Tensor y = call1("aten::layer_norm.default", {tv(make({4}, {1, 2, 3, 4})), ints({4}), tv(w), tv(b), dv(0.0)});
  check_values(y, {4}, {want[0], want[1] + 1, 2 * want[2], 2 * want[3] + 1});
  CHECK(error_code_of("aten::layer_norm.default", {tv(x), ints({3})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::layer_norm.default", {tv(x), ints({4}), tv(make({3}, {1, 1, 1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::layer_norm.default", {tv(x.to(DType::Int64)), ints({4})}) == ErrorCode::BadInput);
}

TEST_CASE("layer_norm in bfloat16 keeps bfloat16 unless the parameters are float", "[normalization]") {
  Tensor x = make({1, 4}, {1, 2, 3, 4}, DType::BFloat16);
  auto out = call("aten::native_layer_norm.default", {tv(x), ints({4}), none(), none(), dv(1e-5)});
  CHECK(out[0].tensor.dtype() == DType::BFloat16);
  CHECK(out[1].tensor.dtype() == DType::BFloat16);
  check_values(out[0].tensor, {1, 4}, standardized_1to4(), 1e-2);
  Tensor w = make({4}, {1, 1, 1, 1});
  auto mixed = call("aten::native_layer_norm.default", {tv(x), ints({4}), tv(w), none(), dv(1e-5)});
  CHECK(mixed[0].tensor.dtype() == DType::BFloat16);
  CHECK(mixed[2].tensor.dtype() == DType::Float32);
}

TEST_CASE("group_norm and native_group_norm", "[normalization]") {
  Tensor x = make({1, 4, 1}, {1, 2, 3, 5});
  check_values(call1("aten::group_norm.default", {tv(x), iv(2), none(), none(), dv(0.0)}), {1, 4, 1}, {-1, 1, -1, 1});
  auto out = call("aten::native_group_norm.default", {tv(x), tv(make({4}, {1, 2, 1, 2})), tv(make({4}, {0, 0, 1, 1})),
                                                          iv(1), iv(4), iv(1), iv(2), dv(0.0)});
  check_values(out[0].tensor, {1, 4, 1}, {-1, 2, 0, 3});
  check_values(out[1].tensor, {1, 2}, {1.5, 4});
  check_values(out[2].tensor, {1, 2}, {2, 1});
  CHECK(error_code_of("aten::group_norm.default", {tv(x), iv(3)}) == ErrorCode::BadInput);
}

TEST_CASE("instance_norm normalizes per instance and averages running stats", "[normalization]") {
  Tensor x = make({1, 2, 2}, {1, 3, 2, 6});
  Tensor rm = make({2}, {0, 0}), rv = make({2}, {1, 1});
  Tensor out = call1("aten::instance_norm.default", {tv(x), none(), none(), tv(rm), tv(rv), bv(true), dv(0.1), dv(0.0), bv(true)});
  check_values(out, {1, 2, 2}, {-1, 1, -1, 1});
  check_values(rm, {2}, {0.2, 0.4});
  check_values(rv, {2}, {1.1, 1.7});
  Tensor two = make({2, 1, 2}, {0, 2, 10, 20});
  check_values(call1("aten::instance_norm.default", {tv(two), none(), none(), none(), none(), bv(true), dv(0.1), dv(0.0), bv(true)}),
               {2, 1, 2}, {-1, 1, -1, 1});
}

TEST_CASE("rms_norm scales by the root mean square", "[normalization]") {
  Tensor x = make({2}, {3, 4});
  const double rms = std::sqrt(12.5);
  check_values(call1("aten::rms_norm.default", {tv(x), ints({2}), none(), dv(0.0)}), {2}, {3 / rms, 4 / rms});
  check_values(call1("aten::rms_norm.default", {tv(x), ints({2}), tv(make({2}, {2, 1})), dv(0.0)}), {2}, {6 / rms, 4 / rms});
  // eps=None means float32's machine epsilon, negligible here.
  check_values(call1("aten::rms_norm.default", {tv(x), ints({2})}), {2}, {3 / rms, 4 / rms});
}
