// Elementwise operators on small hand-checkable tensors: type promotion with
// tensors and numbers, broadcasting, integer wrap-around and division rules,
// NaN/inf handling, in-place variants, 16-bit float rounding, activations and
// dtype conversions.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "ops/registry.h"
#include "ops/op_test.h"
#include "util/error.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

void check(const Tensor& t, DType dtype, const Shape& shape, const std::vector<double>& want, double margin = 1e-6) {
  CHECK(dtype_name(t.dtype()) == std::string(dtype_name(dtype)));
  REQUIRE(t.sizes() == shape);
  REQUIRE(t.numel() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    double got = t.item_as_double(static_cast<int64_t>(i));
    INFO("element " << i);
    if (std::isnan(want[i])) CHECK(std::isnan(got));
    else if (std::isinf(want[i])) CHECK(got == want[i]);
    else CHECK(got == Approx(want[i]).margin(margin));
  }
}

void check_ints(const Tensor& t, DType dtype, const std::vector<int64_t>& want) {
  CHECK(dtype_name(t.dtype()) == std::string(dtype_name(dtype)));
  REQUIRE(t.numel() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) CHECK(t.item_as_int(static_cast<int64_t>(i)) == want[i]);
}

}  // namespace

// ---------------------------------------------------------------- arithmetic

TEST_CASE("add promotes by category: numbers and 0-dim tensors lose to dimensioned tensors", "[elementwise]") {
  Tensor i32 = make({2}, {1, 2}, DType::Int32);
  check(call1("aten::add.Tensor", {tv(i32), dv(0.5)}), DType::Float32, {2}, {1.5, 2.5});
  check_ints(call1("aten::add.Tensor", {tv(i32), iv(3)}), DType::Int32, {4, 5});
  check_ints(call1("aten::add.Tensor", {tv(i32), tv(make_i64({}, {7}))}), DType::Int32, {8, 9});
  check_ints(call1("aten::add.Tensor", {tv(make({2}, {1, 2}, DType::Int8)), tv(make_i64({2}, {1, 1}))}), DType::Int64,
             {2, 3});
  // 0-dim float tensor beats an integer dimensioned tensor (higher category).
  check(call1("aten::add.Tensor", {tv(i32), tv(make({}, {0.25}, DType::Float64))}), DType::Float64, {2}, {1.25, 2.25});
  check_ints(call1("aten::add.Tensor", {tv(make({2}, {1, 0}, DType::Bool)), tv(make({2}, {1, 0}, DType::Bool))}),
             DType::Bool, {1, 0});
}

TEST_CASE("add broadcasts, applies alpha and rejects float alpha for integers", "[elementwise]") {
  Tensor a = make({2, 1}, {1, 2});
  Tensor b = make({3}, {10, 20, 30});
  check(call1("aten::add.Tensor", {tv(a), tv(b), iv(2)}), DType::Float32, {2, 3}, {21, 41, 61, 22, 42, 62});
  CHECK(error_code_of("aten::add.Tensor", {tv(make_i64({1}, {1})), tv(make_i64({1}, {1})), dv(0.5)}) == ErrorCode::BadInput);
  check(call1("aten::add.Tensor", {tv(make({0, 3}, {})), tv(b)}), DType::Float32, {0, 3}, {});
}

TEST_CASE("integer arithmetic wraps around", "[elementwise]") {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  check_ints(call1("aten::add.Tensor", {tv(make_i64({1}, {max})), iv(1)}), DType::Int64, {min});
  check_ints(call1("aten::mul.Tensor", {tv(make_i64({1}, {max})), iv(2)}), DType::Int64, {-2});
  check_ints(call1("aten::sub.Tensor", {tv(make_i64({1}, {min})), iv(1)}), DType::Int64, {max});
  check_ints(call1("aten::neg", {tv(make_i64({1}, {min}))}), DType::Int64, {min});
  check_ints(call1("aten::abs", {tv(make({1}, {-128}, DType::Int8))}), DType::Int8, {-128});
  // int8 + int8 stays int8 and wraps.
  check_ints(call1("aten::add.Tensor", {tv(make({1}, {100}, DType::Int8)), tv(make({1}, {100}, DType::Int8))}),
             DType::Int8, {-56});
}

TEST_CASE("sub and rsub; bool subtraction is rejected", "[elementwise]") {
  Tensor x = make({2}, {1, 2});
  check(call1("aten::rsub.Scalar", {tv(x), iv(5)}), DType::Float32, {2}, {4, 3});
  check(call1("aten::rsub.Tensor", {tv(x), tv(make({2}, {10, 10})), iv(2)}), DType::Float32, {2}, {8, 6});
  check(call1("aten::sub.Tensor", {tv(x), tv(make({2}, {1, 1})), dv(0.5)}), DType::Float32, {2}, {0.5, 1.5});
  Tensor b = make({1}, {1}, DType::Bool);
  CHECK(error_code_of("aten::sub.Tensor", {tv(b), tv(b)}) == ErrorCode::BadInput);
}

TEST_CASE("mul keeps opmath precision for numbers with 16-bit floats", "[elementwise]") {
  // 160 * 1.01 = 161.6 rounds to 162 in bfloat16; rounding 1.01 to bfloat16
  // (1.0078125) first would give 161.25 -> 161.
  check(call1("aten::mul.Tensor", {tv(make({1}, {160}, DType::BFloat16)), dv(1.01)}), DType::BFloat16, {1}, {162});
  check_ints(call1("aten::mul.Tensor", {tv(make({2}, {1, 1}, DType::Bool)), tv(make({2}, {1, 0}, DType::Bool))}),
             DType::Bool, {1, 0});
}

TEST_CASE("true division gives floats; trunc and floor modes keep integers", "[elementwise]") {
  Tensor a = make_i64({4}, {-7, 7, 6, -6});
  Tensor b = make_i64({4}, {2, 2, -4, 4});
  check(call1("aten::div.Tensor", {tv(a), tv(b)}), DType::Float32, {4}, {-3.5, 3.5, -1.5, -1.5});
  check_ints(call1("aten::div.Tensor_mode", {tv(a), tv(b), sv("trunc")}), DType::Int64, {-3, 3, -1, -1});
  check_ints(call1("aten::div.Tensor_mode", {tv(a), tv(b), sv("floor")}), DType::Int64, {-4, 3, -2, -2});
  check_ints(call1("aten::div.Tensor_mode", {tv(a), iv(3), sv("floor")}), DType::Int64, {-3, 2, 2, -2});
  check(call1("aten::div.Tensor_mode", {tv(make({3}, {-7, 7, -0.5})), dv(2.0), sv("floor")}), DType::Float32, {3},
        {-4, 3, -1});
  check(call1("aten::div.Tensor", {tv(make({3}, {1, -1, 0})), dv(0.0)}), DType::Float32, {3}, {kInf, -kInf, kNaN});
  CHECK(error_code_of("aten::div.Tensor_mode", {tv(a), iv(0), sv("floor")}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::div.Tensor_mode", {tv(a), iv(2), sv("round")}) == ErrorCode::BadInput);
}

TEST_CASE("floor_divide matches Python and does not trap on lowest / -1", "[elementwise]") {
  check_ints(call1("aten::floor_divide", {tv(make_i64({3}, {-7, 7, 6})), iv(3)}), DType::Int64, {-3, 2, 2});
  const int64_t min = std::numeric_limits<int64_t>::min();
  check_ints(call1("aten::floor_divide", {tv(make_i64({1}, {min})), iv(-1)}), DType::Int64, {min});
  check(call1("aten::floor_divide.Scalar", {tv(make({2}, {7.5, -7.5})), dv(2.0)}), DType::Float32, {2}, {3, -4});
}

TEST_CASE("remainder takes the divisor's sign, fmod the dividend's", "[elementwise]") {
  Tensor a = make_i64({4}, {-3, 3, 3, -3});
  Tensor b = make_i64({4}, {2, 2, -2, -2});
  check_ints(call1("aten::remainder.Tensor", {tv(a), tv(b)}), DType::Int64, {1, 1, -1, -1});
  check_ints(call1("aten::fmod.Tensor", {tv(a), tv(b)}), DType::Int64, {-1, 1, 1, -1});
  check(call1("aten::remainder.Scalar", {tv(make({2}, {-3.5, 3.5})), dv(2.0)}), DType::Float32, {2}, {0.5, 1.5});
  check(call1("aten::fmod.Scalar", {tv(make({2}, {-3.5, 3.5})), dv(2.0)}), DType::Float32, {2}, {-1.5, 1.5});
  check_ints(call1("aten::remainder.Scalar_Tensor", {iv(5), tv(make_i64({1}, {3}))}), DType::Int64, {2});
  CHECK(error_code_of("aten::remainder.Scalar", {tv(a), iv(0)}) == ErrorCode::BadInput);
  check(call1("aten::remainder.Scalar", {tv(make({1}, {1})), dv(0.0)}), DType::Float32, {1}, {kNaN});
}

TEST_CASE("pow: integer rules, special exponents and the Scalar base overload", "[elementwise]") {
  Tensor i32 = make({2}, {2, 3}, DType::Int32);
  check_ints(call1("aten::pow.Tensor_Scalar", {tv(i32), iv(2)}), DType::Int32, {4, 9});
  check(call1("aten::pow.Tensor_Scalar", {tv(i32), dv(0.5)}), DType::Float32, {2}, {std::sqrt(2.0), std::sqrt(3.0)});
  CHECK(error_code_of("aten::pow.Tensor_Scalar", {tv(i32), iv(-1)}) == ErrorCode::BadInput);
  check_ints(call1("aten::pow.Tensor_Tensor", {tv(make_i64({4}, {2, 1, -1, -1})), tv(make_i64({4}, {-1, -5, -3, -2}))}),
             DType::Int64, {0, 1, -1, 1});
  check_ints(call1("aten::pow.Scalar", {iv(2), tv(i32)}), DType::Int32, {4, 8});
  check(call1("aten::pow.Scalar", {dv(2.0), tv(i32)}), DType::Float32, {2}, {4, 8});
  check(call1("aten::pow.Tensor_Scalar", {tv(make({2}, {kNaN, 4})), iv(0)}), DType::Float32, {2}, {1, 1});
  check(call1("aten::pow.Tensor_Scalar", {tv(make({2}, {4, 0.25})), dv(-0.5)}), DType::Float32, {2}, {0.5, 2});
  check_ints(call1("aten::square", {tv(make({2}, {1, 0}, DType::Bool))}), DType::Int64, {1, 0});
  check(call1("aten::square", {tv(make({2}, {-3, 0.5}))}), DType::Float32, {2}, {9, 0.25});
}

TEST_CASE("atan2 promotes integers to float", "[elementwise]") {
  check(call1("aten::atan2", {tv(make_i64({2}, {1, -1})), tv(make_i64({2}, {1, 0}))}), DType::Float32, {2},
        {M_PI / 4, -M_PI / 2});
}

TEST_CASE("addcmul, addcdiv and lerp", "[elementwise]") {
  Tensor one = make({1}, {1}), two = make({1}, {2}), three = make({1}, {3});
  check(call1("aten::addcmul", {tv(one), tv(two), tv(three), iv(2)}), DType::Float32, {1}, {13});
  check(call1("aten::addcdiv", {tv(one), tv(three), tv(two), iv(2)}), DType::Float32, {1}, {4});
  Tensor ints = make_i64({1}, {3});
  CHECK(error_code_of("aten::addcdiv", {tv(one), tv(ints), tv(ints)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::addcmul", {tv(ints), tv(ints), tv(ints), dv(0.5)}) == ErrorCode::BadInput);
  check_ints(call1("aten::addcmul", {tv(ints), tv(ints), tv(ints), iv(2)}), DType::Int64, {21});

  Tensor start = make({3}, {0, 0, 1}), end = make({3}, {10, -10, 3});
  check(call1("aten::lerp.Scalar", {tv(start), tv(end), dv(0.3)}), DType::Float32, {3}, {3, -3, 1.6});
  check(call1("aten::lerp.Scalar", {tv(start), tv(end), dv(1.0)}), DType::Float32, {3}, {10, -10, 3});
  check(call1("aten::lerp.Tensor", {tv(start), tv(end), tv(make({3}, {0, 1, 0.5}))}), DType::Float32, {3},
        {0, -10, 2});
  CHECK(error_code_of("aten::lerp.Scalar", {tv(start), tv(make({3}, {1, 1, 1}, DType::Float64)), dv(0.5)}) ==
        ErrorCode::BadInput);
}

// ---------------------------------------------------------------- in place

TEST_CASE("in-place ops write into self's storage, views included", "[elementwise]") {
  Tensor base = make({2, 3}, {1, 2, 3, 4, 5, 6});
  // A transposed (non-contiguous) view of base.
  Tensor view = base.as_strided({3, 2}, {1, 3}, 0);
  Tensor result = call1("aten::add_.Tensor", {tv(view), tv(make({2}, {10, 100}))});
  CHECK(result.storage() == base.storage());
  check(base, DType::Float32, {2, 3}, {11, 12, 13, 104, 105, 106});

  Tensor x = make({3}, {-1, 0, 2});
  Tensor r = call1("aten::relu_", {tv(x)});
  CHECK(r.storage() == x.storage());
  check(x, DType::Float32, {3}, {0, 0, 2});
}

TEST_CASE("in-place ops cast the result to self's dtype when ATen allows it", "[elementwise]") {
  Tensor i32 = make({2}, {1, 2}, DType::Int32);
  call1("aten::add_.Tensor", {tv(i32), tv(make_i64({2}, {5, 5}))});
  check_ints(i32, DType::Int32, {6, 7});
  CHECK(error_code_of("aten::add_.Tensor", {tv(i32), dv(0.5)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::mul_.Tensor", {tv(make({3}, {1, 2, 3})), tv(make({2, 3}, {1, 1, 1, 1, 1, 1}))}) ==
        ErrorCode::BadInput);
  Tensor f = make({3}, {1, 2, 3});
  call1("aten::eq_.Scalar", {tv(f), iv(2)});
  check(f, DType::Float32, {3}, {0, 1, 0});
  CHECK(error_code_of("aten::sqrt_", {tv(make_i64({1}, {4}))}) == ErrorCode::BadInput);
}

// ---------------------------------------------------------------- unary

TEST_CASE("unary float ops turn integers into float32 and handle non-contiguous input", "[elementwise]") {
  check(call1("aten::exp", {tv(make_i64({2}, {0, 1}))}), DType::Float32, {2}, {1, M_E});
  check(call1("aten::sqrt", {tv(make({2}, {4, -1}, DType::Float64))}), DType::Float64, {2}, {2, kNaN});
  check(call1("aten::log", {tv(make({2}, {0, -1}))}), DType::Float32, {2}, {-kInf, kNaN});
  check(call1("aten::rsqrt", {tv(make({2}, {4, 0}))}), DType::Float32, {2}, {0.5, kInf});
  check(call1("aten::reciprocal", {tv(make_i64({2}, {2, 0}))}), DType::Float32, {2}, {0.5, kInf});
  Tensor base = make({2, 2}, {1, 4, 9, 16});
  Tensor transposed = base.as_strided({2, 2}, {1, 2}, 0);
  check(call1("aten::sqrt", {tv(transposed)}), DType::Float32, {2, 2}, {1, 3, 2, 4});
  check(call1("aten::erfinv", {tv(make({5}, {0, 0.5, -0.9, 1, 2}, DType::Float64))}), DType::Float64, {5},
        {0, 0.4769362762044699, -1.1630871536766743, kInf, kNaN}, 1e-12);
  check(call1("aten::exp2", {tv(make({1}, {3}))}), DType::Float32, {1}, {8});
  check(call1("aten::log10", {tv(make({1}, {1000}))}), DType::Float32, {1}, {3}, 1e-5);
}

TEST_CASE("abs, neg, rounding and sign keep the dtype", "[elementwise]") {
  check(call1("aten::round", {tv(make({5}, {0.5, 1.5, 2.5, -0.5, -1.7}))}), DType::Float32, {5}, {0, 2, 2, -0.0, -2});
  check(call1("aten::round.decimals", {tv(make({2}, {1.2345, -2.675}, DType::Float64)), iv(2)}), DType::Float64, {2},
        {1.23, -2.68}, 1e-12);
  check(call1("aten::round.decimals", {tv(make({1}, {1250}, DType::Float64)), iv(-2)}), DType::Float64, {1}, {1200});
  check_ints(call1("aten::floor", {tv(make_i64({2}, {-3, 4}))}), DType::Int64, {-3, 4});
  check(call1("aten::floor", {tv(make({2}, {-1.5, 1.5}))}), DType::Float32, {2}, {-2, 1});
  check(call1("aten::ceil", {tv(make({2}, {-1.5, 1.5}))}), DType::Float32, {2}, {-1, 2});
  check(call1("aten::trunc", {tv(make({2}, {-1.5, 1.5}))}), DType::Float32, {2}, {-1, 1});
  check(call1("aten::frac", {tv(make({2}, {-1.25, 1.5}))}), DType::Float32, {2}, {-0.25, 0.5});
  check(call1("aten::sign", {tv(make({4}, {-2, 0, 3, kNaN}))}), DType::Float32, {4}, {-1, 0, 1, 0});
  check_ints(call1("aten::sign", {tv(make_i64({3}, {-5, 0, 5}))}), DType::Int64, {-1, 0, 1});
  check_ints(call1("aten::sign", {tv(make({2}, {1, 0}, DType::Bool))}), DType::Bool, {1, 0});
  check(call1("aten::abs", {tv(make({2}, {-0.5, 2}))}), DType::Float32, {2}, {0.5, 2});
  Tensor b = make({1}, {1}, DType::Bool);
  CHECK(error_code_of("aten::abs", {tv(b)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::neg", {tv(b)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::frac", {tv(make_i64({1}, {1}))}) == ErrorCode::BadInput);
}

TEST_CASE("predicates, nan_to_num, bitwise_not and logical_not", "[elementwise]") {
  Tensor x = make({4}, {1, kNaN, kInf, -kInf});
  check_ints(call1("aten::isnan", {tv(x)}), DType::Bool, {0, 1, 0, 0});
  check_ints(call1("aten::isinf", {tv(x)}), DType::Bool, {0, 0, 1, 1});
  check_ints(call1("aten::isfinite", {tv(x)}), DType::Bool, {1, 0, 0, 0});
  check_ints(call1("aten::isposinf", {tv(x)}), DType::Bool, {0, 0, 1, 0});
  check_ints(call1("aten::isfinite", {tv(make_i64({1}, {5}))}), DType::Bool, {1});
  check_ints(call1("aten::signbit", {tv(make({3}, {-0.0, 0.0, -2}))}), DType::Bool, {1, 0, 1});
  const double fmax = std::numeric_limits<float>::max();
  check(call1("aten::nan_to_num", {tv(x)}), DType::Float32, {4}, {1, 0, fmax, -fmax}, 0);
  check(call1("aten::nan_to_num", {tv(x), dv(5), dv(6), dv(-6)}), DType::Float32, {4}, {1, 5, 6, -6});
  check(call1("aten::nan_to_num", {tv(x.to(DType::BFloat16))}), DType::BFloat16, {4},
        {1, 0, 3.3895313892515355e38, -3.3895313892515355e38}, 0);
  check_ints(call1("aten::bitwise_not", {tv(make_i64({2}, {0, 5}))}), DType::Int64, {-1, -6});
  check_ints(call1("aten::bitwise_not", {tv(make({2}, {1, 0}, DType::Bool))}), DType::Bool, {0, 1});
  CHECK(error_code_of("aten::bitwise_not", {tv(x)}) == ErrorCode::BadInput);
  check_ints(call1("aten::logical_not", {tv(make({3}, {0, 2, kNaN}))}), DType::Bool, {1, 0, 0});
}

// ---------------------------------------------------------------- comparisons and logic

TEST_CASE("comparisons promote, broadcast and treat NaN as unordered", "[elementwise]") {
  Tensor ints = make_i64({3}, {1, 2, 3});
  check_ints(call1("aten::gt.Scalar", {tv(ints), dv(1.5)}), DType::Bool, {0, 1, 1});
  check_ints(call1("aten::eq.Scalar", {tv(ints), dv(2.0)}), DType::Bool, {0, 1, 0});
  Tensor n = make({2}, {kNaN, 1});
  check_ints(call1("aten::eq.Tensor", {tv(n), tv(n)}), DType::Bool, {0, 1});
  check_ints(call1("aten::ne.Tensor", {tv(n), tv(n)}), DType::Bool, {1, 0});
  check_ints(call1("aten::le.Tensor", {tv(make({2, 1}, {1, 2})), tv(make({2}, {1, 2}))}), DType::Bool, {1, 1, 0, 1});
}

TEST_CASE("logical and bitwise binary ops", "[elementwise]") {
  check_ints(call1("aten::logical_and", {tv(make({3}, {0, 1, kNaN})), tv(make_i64({3}, {1, 1, 1}))}), DType::Bool,
             {0, 1, 1});
  check_ints(call1("aten::logical_xor", {tv(make({2}, {0, 3})), tv(make({2}, {0, 0}))}), DType::Bool, {0, 1});
  check_ints(call1("aten::bitwise_and.Tensor", {tv(make_i64({2}, {6, 5})), tv(make_i64({2}, {3, 1}))}), DType::Int64,
             {2, 1});
  check_ints(call1("aten::bitwise_xor.Scalar", {tv(make({2}, {6, 5}, DType::Int32)), iv(3)}), DType::Int32, {5, 6});
  check_ints(call1("aten::bitwise_or.Tensor", {tv(make({2}, {1, 0}, DType::Bool)), tv(make({2}, {0, 0}, DType::Bool))}),
             DType::Bool, {1, 0});
  CHECK(error_code_of("aten::bitwise_and.Tensor", {tv(make({1}, {1})), tv(make({1}, {1}))}) == ErrorCode::BadInput);
}

TEST_CASE("where promotes its two values and broadcasts all three", "[elementwise]") {
  Tensor cond = make({2, 1}, {1, 0}, DType::Bool);
  check(call1("aten::where.self", {tv(cond), tv(make({2}, {1, 2})), tv(make({2}, {-1, -2}))}), DType::Float32, {2, 2},
        {1, 2, -1, -2});
  check(call1("aten::where.ScalarOther", {tv(cond), tv(make_i64({1}, {7})), dv(0.5)}), DType::Float32, {2, 1},
        {7, 0.5});
  check_ints(call1("aten::where.self", {tv(cond), tv(make_i64({1}, {7})), iv(0)}), DType::Int64, {7, 0});
  check(call1("aten::where.Scalar", {tv(cond), dv(1.0), iv(0)}), DType::Float32, {2, 1}, {1, 0});
  CHECK(error_code_of("aten::where.self", {tv(make({1}, {1})), tv(make({1}, {1})), tv(make({1}, {1}))}) ==
        ErrorCode::BadInput);
}

TEST_CASE("clamp: NaN inputs stay NaN, integer tensors promote for float bounds", "[elementwise]") {
  check(call1("aten::clamp", {tv(make({4}, {-2, 0.5, 3, kNaN})), dv(0), dv(1)}), DType::Float32, {4}, {0, 0.5, 1, kNaN});
  check_ints(call1("aten::clamp", {tv(make({3}, {1, 5, 10}, DType::Int32)), iv(2), iv(8)}), DType::Int32, {2, 5, 8});
  check(call1("aten::clamp", {tv(make({3}, {0, 1, 3}, DType::Int32)), dv(0.5), dv(2.5)}), DType::Float32, {3},
        {0.5, 1, 2.5});
  check(call1("aten::clamp", {tv(make({2}, {0, 5})), dv(3), dv(1)}), DType::Float32, {2}, {1, 1});
  check(call1("aten::clamp", {tv(make({2}, {-1, 5})), none(), iv(2)}), DType::Float32, {2}, {-1, 2});
  CHECK(error_code_of("aten::clamp", {tv(make({1}, {1})), none(), none()}) == ErrorCode::BadInput);
  check(call1("aten::clamp.Tensor", {tv(make({3}, {-1, 0.5, 2})), tv(make({3}, {0, kNaN, 0})), tv(make({1}, {1}))}),
        DType::Float32, {3}, {0, kNaN, 1});
  check(call1("aten::clamp_min", {tv(make({2}, {-1, 2})), iv(0)}), DType::Float32, {2}, {0, 2});
  check(call1("aten::clamp_max.Tensor", {tv(make({2}, {-1, 2})), tv(make({2}, {0, 0}))}), DType::Float32, {2}, {-1, 0});
}

TEST_CASE("maximum/minimum propagate NaN; fmax/fmin ignore it", "[elementwise]") {
  Tensor a = make({3}, {1, kNaN, kNaN}), b = make({3}, {2, 1, kNaN});
  check(call1("aten::maximum", {tv(a), tv(b)}), DType::Float32, {3}, {2, kNaN, kNaN});
  check(call1("aten::minimum", {tv(a), tv(b)}), DType::Float32, {3}, {1, kNaN, kNaN});
  check(call1("aten::fmax", {tv(a), tv(b)}), DType::Float32, {3}, {2, 1, kNaN});
  check(call1("aten::fmin", {tv(a), tv(b)}), DType::Float32, {3}, {1, 1, kNaN});
  check(call1("aten::maximum", {tv(make_i64({1}, {3})), tv(make({1}, {2.5}))}), DType::Float32, {1}, {3});
}

// ---------------------------------------------------------------- activations

TEST_CASE("smooth activations", "[elementwise]") {
  Tensor x = make({3}, {-1, 0, 1}, DType::Float64);
  check(call1("aten::gelu", {tv(x)}), DType::Float64, {3}, {-0.15865525393145707, 0, 0.8413447460685429}, 1e-12);
  check(call1("aten::gelu", {tv(x), sv("tanh")}), DType::Float64, {3},
        {-0.15880800939172324, 0, 0.8411919906082768}, 1e-12);
  CHECK(error_code_of("aten::gelu", {tv(x), sv("fast")}) == ErrorCode::BadInput);
  check(call1("aten::silu", {tv(x)}), DType::Float64, {3}, {-0.2689414213699951, 0, 0.7310585786300049}, 1e-12);
  check(call1("aten::sigmoid", {tv(make_i64({1}, {0}))}), DType::Float32, {1}, {0.5});
  check(call1("aten::tanh", {tv(x)}), DType::Float64, {3}, {-0.7615941559557649, 0, 0.7615941559557649}, 1e-12);
  check(call1("aten::elu", {tv(x)}), DType::Float64, {3}, {-0.6321205588285577, 0, 1}, 1e-12);
  check(call1("aten::selu", {tv(x)}), DType::Float64, {3}, {-1.1113307378125628, 0, 1.0507009873554805}, 1e-12);
  check(call1("aten::celu", {tv(x), iv(2)}), DType::Float64, {3}, {-0.7869386805747332, 0, 1}, 1e-12);
  check(call1("aten::softplus", {tv(make({3}, {0, 30, -1}, DType::Float64))}), DType::Float64, {3},
        {0.6931471805599453, 30, 0.31326168751822286}, 1e-12);
  check(call1("aten::mish", {tv(x)}), DType::Float64, {3}, {-0.30340146137410895, 0, 0.8650983882673103}, 1e-12);
  check(call1("aten::log_sigmoid", {tv(x)}), DType::Float64, {3},
        {-1.3132616875182228, -0.6931471805599453, -0.31326168751822286}, 1e-12);
  check(call1("aten::logit", {tv(make({3}, {0.5, 0, 0.25}, DType::Float64)), dv(0.25)}), DType::Float64, {3},
        {0, std::log(1.0 / 3.0), std::log(1.0 / 3.0)}, 1e-12);
  CHECK(error_code_of("aten::silu", {tv(make_i64({1}, {1}))}) == ErrorCode::BadInput);
}

TEST_CASE("piecewise activations", "[elementwise]") {
  Tensor x = make({5}, {-4, -1, 0.5, 3, 7});
  check(call1("aten::relu6", {tv(x)}), DType::Float32, {5}, {0, 0, 0.5, 3, 6});
  check(call1("aten::hardtanh", {tv(x)}), DType::Float32, {5}, {-1, -1, 0.5, 1, 1});
  check(call1("aten::leaky_relu", {tv(x), dv(0.1)}), DType::Float32, {5}, {-0.4, -0.1, 0.5, 3, 7});
  check(call1("aten::hardsigmoid", {tv(x)}), DType::Float32, {5}, {0, 2.0 / 6, 3.5 / 6, 1, 1});
  check(call1("aten::hardswish", {tv(x)}), DType::Float32, {5}, {0, -2.0 / 6, 0.5 * 3.5 / 6, 3, 7});
  check(call1("aten::threshold", {tv(x), dv(0.5), iv(-9)}), DType::Float32, {5}, {-9, -9, -9, 3, 7});
  check(call1("aten::hardshrink", {tv(x), dv(1)}), DType::Float32, {5}, {-4, -1 * 0, 0, 3, 7});
  check(call1("aten::softshrink", {tv(x), dv(1)}), DType::Float32, {5}, {-3, 0, 0, 2, 6});
  // Integer tensors: hardtanh truncates float bounds instead of promoting.
  check_ints(call1("aten::hardtanh", {tv(make_i64({3}, {-5, 0, 5})), dv(-1.5), dv(2.7)}), DType::Int64, {-1, 0, 2});
  CHECK(error_code_of("aten::hardtanh", {tv(make({1}, {1}, DType::Bool))}) == ErrorCode::BadInput);
  check(call1("aten::relu", {tv(make({3}, {-1, kNaN, 2}))}), DType::Float32, {3}, {0, kNaN, 2});
  Tensor y = make({2}, {-3, 8});
  Tensor r = call1("aten::hardtanh_", {tv(y), iv(0), iv(6)});
  CHECK(r.storage() == y.storage());
  check(y, DType::Float32, {2}, {0, 6});
}

TEST_CASE("glu halves a dim; prelu weights per channel", "[elementwise]") {
  Tensor x = make({2, 2}, {1, 2, 0, 0}, DType::Float64);
  double s = 1.0 / (1.0 + std::exp(-2.0));
  check(call1("aten::glu", {tv(x), iv(0)}), DType::Float64, {1, 2}, {1 * 0.5, 2 * 0.5}, 1e-12);
  check(call1("aten::glu", {tv(x), iv(-1)}), DType::Float64, {2, 1}, {1 * s, 0}, 1e-12);
  CHECK(error_code_of("aten::glu", {tv(make({3}, {1, 2, 3})), iv(0)}) == ErrorCode::BadInput);
  Tensor input = make({1, 2, 2}, {-1, 2, -3, 4});
  check(call1("aten::prelu", {tv(input), tv(make({2}, {0.5, 0.1}))}), DType::Float32, {1, 2, 2}, {-0.5, 2, -0.3, 4});
  check(call1("aten::prelu", {tv(input), tv(make({1}, {0.25}))}), DType::Float32, {1, 2, 2}, {-0.25, 2, -0.75, 4});
  CHECK(error_code_of("aten::prelu", {tv(input), tv(make({3}, {1, 1, 1}))}) == ErrorCode::BadInput);
}

TEST_CASE("bfloat16 activations compute in float and round once", "[elementwise]") {
  // gelu(1) = 0.84134...; the nearest bfloat16 is 0.83984375 (steps of 2^-8 there).
  check(call1("aten::gelu", {tv(make({1}, {1}, DType::BFloat16))}), DType::BFloat16, {1}, {0.83984375}, 0);
}

// ---------------------------------------------------------------- conversions

TEST_CASE("_to_copy and to: conversions, aliasing and devices", "[elementwise]") {
  Tensor x = make({2}, {1.7, -1.7});
  Value i32 = Value::from_dtype(DType::Int32);
  check_ints(call1("aten::_to_copy", {tv(x), i32}), DType::Int32, {1, -1});
  Tensor same = call1("aten::_to_copy", {tv(x)});
  CHECK(same.storage() != x.storage());
  CHECK(call1("aten::to.dtype", {tv(x), Value::from_dtype(DType::Float32)}).storage() == x.storage());
  CHECK(call1("aten::to.dtype", {tv(x), Value::from_dtype(DType::Float32), bv(false), bv(true)}).storage() !=
        x.storage());
  check(call1("aten::to.dtype", {tv(x), Value::from_dtype(DType::Float64)}), DType::Float64, {2}, {1.7, -1.7});
  check(call1("aten::type_as", {tv(make_i64({1}, {3})), tv(x)}), DType::Float32, {1}, {3});
  Value cuda;
  cuda.kind = Value::Kind::Device;
  cuda.s = "cuda";
  CHECK(error_code_of("aten::_to_copy", {tv(x), none(), none(), cuda}) == ErrorCode::Unsupported);
}
