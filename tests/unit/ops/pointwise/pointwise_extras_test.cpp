// The pointwise extras (float_binary.cpp, float_representation.cpp,
// integer_bits.cpp, closeness.cpp, aliases.cpp): promotion and refusals as
// ATen has them, 16-bit nextafter in its own grid, shift counts out of
// range, gcd/lcm signs, isclose/isin with NaN, infinities and bools, and
// the aliases. Expected values are torch 2.6's (trixie chroot).
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

std::vector<int64_t> ints_of(const Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.item_as_int(i));
  return out;
}

}  // namespace

TEST_CASE("copysign promotes integers; hypot, logaddexp refuse them", "[ops][pointwise_extras]") {
  Tensor out = call1("aten::copysign.Tensor", {tv(make_i64({3}, {1, -2, 3})), tv(make({3}, {-0.0, 1.0, -1.0}))});
  CHECK(out.dtype() == DType::Float32);
  check_values(out, {3}, {-1.0, 2.0, -3.0});
  check_values(call1("aten::hypot", {tv(make({2}, {3.0, kInf})), tv(make({2}, {4.0, kNaN}))}), {2}, {5.0, kInf});
  CHECK(error_code_of("aten::hypot", {tv(make_i64({1}, {3})), tv(make_i64({1}, {4}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::logaddexp", {tv(make_i64({1}, {1})), tv(make_i64({1}, {1}))}) == ErrorCode::BadInput);
}

TEST_CASE("logaddexp and logaddexp2: equal infinities, large values", "[ops][pointwise_extras]") {
  check_values(call1("aten::logaddexp", {tv(make({4}, {-kInf, kInf, 1.0, 1000.0})), tv(make({4}, {-kInf, kInf, 2.0, 1000.0}))}),
               {4}, {-kInf, kInf, 2.3132617473602295, 1000.6931762695312});
  check_values(call1("aten::logaddexp2", {tv(make({3}, {-kInf, 1.0, 3.0})), tv(make({3}, {-kInf, 1.0, 4.0}))}), {3},
               {-kInf, 2.0, 4.584962368011475});
}

TEST_CASE("nextafter steps in the dtype's own grid", "[ops][pointwise_extras]") {
  Tensor half = call1("aten::nextafter", {tv(make({4}, {1.0, 0.0, -0.0, 65504.0}, DType::Float16)),
                                          tv(make({4}, {2.0, -1.0, 1.0, kInf}, DType::Float16))});
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {4}, {1.0009765625, -5.960464477539063e-08, 5.960464477539063e-08, kInf}, 1e-12);
  check_values(call1("aten::nextafter", {tv(make({2}, {1.0, 0.0}, DType::BFloat16)), tv(make({2}, {0.0, 1.0}, DType::BFloat16))}),
               {2}, {0.99609375, 9.183549615799121e-41}, 1e-45);
  check_values(call1("aten::nextafter", {tv(make({1}, {1.0})), tv(make({1}, {2.0}))}), {1}, {1.0000001192092896}, 1e-12);
}

TEST_CASE("heaviside: values at zero, NaN gives 0, one dtype required", "[ops][pointwise_extras]") {
  check_values(call1("aten::heaviside", {tv(make({4}, {-1.5, 0.0, 2.0, kNaN})), tv(make({1}, {0.5}))}), {4},
               {0.0, 0.5, 1.0, 0.0});
  CHECK(ints_of(call1("aten::heaviside", {tv(make_i64({3}, {-1, 0, 3})), tv(make_i64({3}, {7, 8, 9}))})) ==
        std::vector<int64_t>{0, 8, 1});
  CHECK(error_code_of("aten::heaviside", {tv(make({1}, {1.0})), tv(make({1}, {1.0}, DType::Float64))}) ==
        ErrorCode::BadInput);
}

TEST_CASE("frexp, ldexp, float_power, deg2rad, rad2deg", "[ops][pointwise_extras]") {
  std::vector<Value> parts = call("aten::frexp.Tensor", {tv(make({5}, {8.0, -0.75, 0.0, 1e-40, kInf}))});
  check_values(parts.at(0).tensor, {5}, {0.5, -0.75, 0.0, 0.5444488525390625, kInf});
  CHECK(parts.at(1).tensor.dtype() == DType::Int32);
  CHECK(ints_of(parts.at(1).tensor) == std::vector<int64_t>{4, 0, 0, -132, 0});
  CHECK(error_code_of("aten::frexp.Tensor", {tv(make_i64({1}, {1}))}) == ErrorCode::BadInput);

  Tensor ldexp = call1("aten::ldexp.Tensor", {tv(make_i64({2}, {1, 3})), tv(make_i64({2}, {3, -1}))});
  CHECK(ldexp.dtype() == DType::Float32);
  check_values(ldexp, {2}, {8.0, 1.5});
  CHECK(call1("aten::ldexp.Tensor", {tv(make({1}, {1.5}, DType::Float16)), tv(make({1}, {2.0}, DType::Float16))}).dtype() ==
        DType::Float16);

  Tensor power = call1("aten::float_power.Tensor_Tensor", {tv(make_i64({2}, {2, 3})), tv(make({2}, {0.5, 2.0}))});
  CHECK(power.dtype() == DType::Float64);
  check_values(power, {2}, {1.4142135623730951, 9.0}, 1e-15);
  CHECK(error_code_of("aten::float_power_.Scalar", {tv(make({1}, {2.0})), dv(2.0)}) == ErrorCode::BadInput);

  check_values(call1("aten::deg2rad", {tv(make_bool({2}, {true, false}))}), {2}, {0.01745329238474369, 0.0}, 1e-9);
  check_values(call1("aten::rad2deg", {tv(make_i64({2}, {1, -2}))}), {2}, {57.295780181884766, -114.59156036376953});
  check_values(call1("aten::deg2rad", {tv(make({1}, {180.0}, DType::Float16))}), {1}, {3.140625}, 1e-9);
}

TEST_CASE("isclose: integers, bools, equal_nan, infinities, dtype mismatch", "[ops][pointwise_extras]") {
  auto bools = [](const Tensor& t) {
    REQUIRE(t.dtype() == DType::Bool);
    return ints_of(t);
  };
  CHECK(bools(call1("aten::isclose", {tv(make_i64({3}, {1, 2, 100})), tv(make_i64({3}, {1, 3, 100}))})) ==
        std::vector<int64_t>{1, 0, 1});
  CHECK(bools(call1("aten::isclose", {tv(make({4}, {1.0, kNaN, kInf, 1.0})), tv(make({4}, {1.0 + 1e-6, kNaN, kInf, 1.1})),
                                      dv(1e-5), dv(1e-8), bv(true)})) == std::vector<int64_t>{1, 1, 1, 0});
  CHECK(bools(call1("aten::isclose", {tv(make_bool({2}, {true, false})), tv(make_bool({2}, {true, true}))})) ==
        std::vector<int64_t>{1, 0});
  CHECK(bools(call1("aten::isclose", {tv(make({2}, {1.0, 2.0})), tv(make({2}, {1.05, 2.5})), dv(0.1), dv(0.0)})) ==
        std::vector<int64_t>{1, 0});
  CHECK(error_code_of("aten::isclose", {tv(make({1}, {1.0})), tv(make({1}, {1.0}, DType::Float64))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::isclose", {tv(make({1}, {1.0})), tv(make({1}, {1.0})), dv(-1.0)}) == ErrorCode::BadInput);
}

TEST_CASE("isin: NaN never a member, -0 equals 0, promotion, invert", "[ops][pointwise_extras]") {
  Tensor in = call1("aten::isin.Tensor_Tensor", {tv(make({4}, {1.0, 2.0, kNaN, -0.0})), tv(make({3}, {2.0, kNaN, 0.0}))});
  CHECK(ints_of(in) == std::vector<int64_t>{0, 1, 0, 1});
  Tensor out = call1("aten::isin.Tensor_Tensor", {tv(make_i64({3}, {1, 2, 3})), tv(make({2}, {2.5, 3.0})), bv(false), bv(true)});
  CHECK(ints_of(out) == std::vector<int64_t>{1, 1, 0});
  CHECK(call1("aten::isin.Tensor_Tensor", {tv(make({0}, {})), tv(make({1}, {1.0}))}).numel() == 0);
}

TEST_CASE("shifts: counts out of range, unsigned wrap; gcd and lcm", "[ops][pointwise_extras]") {
  CHECK(ints_of(call1("aten::bitwise_left_shift.Tensor", {tv(make_i64({3}, {1, -1, 5})), tv(make_i64({3}, {62, 3, 64}))})) ==
        std::vector<int64_t>{4611686018427387904, -8, 0});
  CHECK(ints_of(call1("aten::bitwise_right_shift.Tensor", {tv(make_i64({3}, {-16, 16, -1})), tv(make_i64({3}, {2, 65, -3}))})) ==
        std::vector<int64_t>{-4, 0, -1});
  Tensor u8 = make({1}, {255.0}, DType::UInt8);
  CHECK(ints_of(call1("aten::bitwise_left_shift.Tensor", {tv(u8), tv(make({1}, {1.0}, DType::UInt8))})) ==
        std::vector<int64_t>{254});
  CHECK(ints_of(call1("aten::bitwise_right_shift.Tensor", {tv(u8), tv(make({1}, {8.0}, DType::UInt8))})) ==
        std::vector<int64_t>{0});
  CHECK(error_code_of("aten::bitwise_left_shift.Tensor", {tv(make_bool({1}, {true})), tv(make_bool({1}, {true}))}) ==
        ErrorCode::BadInput);
  CHECK(ints_of(call1("aten::gcd", {tv(make_i64({4}, {12, -18, 0, 7})), tv(make_i64({4}, {18, 12, 0, 0}))})) ==
        std::vector<int64_t>{6, 6, 0, 7});
  CHECK(ints_of(call1("aten::lcm", {tv(make_i64({3}, {4, -6, 0})), tv(make_i64({3}, {6, 4, 5}))})) ==
        std::vector<int64_t>{12, 12, 0});
  const int64_t lowest = std::numeric_limits<int64_t>::lowest();
  CHECK(ints_of(call1("aten::gcd", {tv(make_i64({1}, {lowest})), tv(make_i64({1}, {0}))})) == std::vector<int64_t>{lowest});
  CHECK(error_code_of("aten::gcd", {tv(make({1}, {1.0})), tv(make({1}, {2.0}))}) == ErrorCode::BadInput);
}

TEST_CASE("aliases run their targets; positive; convert_element_type", "[ops][pointwise_extras]") {
  CHECK(ints_of(call1("aten::divide.Tensor_mode", {tv(make_i64({2}, {1, 3})), tv(make_i64({2}, {2, 2})), sv("floor")})) ==
        std::vector<int64_t>{0, 1});
  check_values(call1("aten::true_divide.Scalar", {tv(make_i64({2}, {1, 3})), iv(2)}), {2}, {0.5, 1.5});
  check_values(call1("aten::subtract.Tensor", {tv(make({1}, {5.0})), tv(make({1}, {2.0})), iv(2)}), {1}, {1.0});
  check_values(call1("aten::divide.Tensor", {tv(make({2}, {1.0, -1.0})), tv(make({2}, {0.0, 4.0}))}), {2}, {kInf, -0.25});
  Tensor x = make({2}, {1.0, 2.0});
  Tensor same = call1("aten::positive", {tv(x)});
  CHECK(same.storage() == x.storage());
  CHECK(error_code_of("aten::positive", {tv(make_bool({1}, {true}))}) == ErrorCode::BadInput);
  Tensor converted = call1("prims::convert_element_type", {tv(make({2}, {1.7, -2.5})), dt(DType::Int64)});
  CHECK(ints_of(converted) == std::vector<int64_t>{1, -2});
}
