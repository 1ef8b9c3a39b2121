// The special-function operators (special.cpp, special_binary.cpp): result
// dtypes (integer and bool inputs compute in float32), float32 computed in
// float as torch does, 16-bit inputs refused where ATen refuses them,
// broadcasting and number operands, argument errors, NaN and zero cases.
// Expected values are torch 2.6's (trixie chroot); the scalar math itself
// is tested in tests/unit/kernels/special_functions_test.cpp.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("polygamma: orders, float32 at a pole, integer input, negative order refused", "[ops][special]") {
  Tensor x = make({3}, {-1.0, 0.5, 3.0});
  Tensor trigamma = call1("aten::polygamma", {iv(1), tv(x)});
  CHECK(trigamma.dtype() == DType::Float32);
  check_values(trigamma, {3}, {1291369695936512.0, 4.934802055358887, 0.3949340581893921}, 1e-5);
  Tensor ints = call1("aten::special_polygamma", {iv(2), tv(make_i64({3}, {1, 2, 3}))});
  CHECK(ints.dtype() == DType::Float32);
  check_values(ints, {3}, {-2.40411376953125, -0.4041137993335724, -0.15411381423473358}, 1e-5);
  CHECK(error_code_of("aten::polygamma", {iv(-1), tv(x)}) == ErrorCode::BadInput);
  Tensor self = make({3}, {1.0, 2.0, 3.0});
  call("aten::polygamma_", {tv(self), iv(2)});
  check_values(self, {3}, {-2.40411376953125, -0.4041137993335724, -0.15411381423473358}, 1e-5);
}

TEST_CASE("mvlgamma: sums of shifted lgamma, float16, p checked", "[ops][special]") {
  check_values(call1("aten::mvlgamma", {tv(make({2, 2}, {2.5, 3.0, 1.6, 10.0})), iv(3)}), {2, 2},
               {1.8809953927993774, 2.694924831390381, 1.952864408493042, 36.81285858154297}, 1e-5);
  Tensor half = call1("aten::mvlgamma", {tv(make({2}, {2.5, 3.0}, DType::Float16)), iv(2)});
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {2}, {0.85693359375, 1.55078125}, 1e-3);
  CHECK(error_code_of("aten::mvlgamma", {tv(make({1}, {3.0})), iv(0)}) == ErrorCode::BadInput);
}

TEST_CASE("unary special functions: dtypes, poles and zeros", "[ops][special]") {
  check_values(call1("aten::lgamma", {tv(make_bool({2}, {true, false}))}), {2}, {0.0, kInf});
  Tensor digamma = call1("aten::digamma", {tv(make({3}, {-2.5, 0.3, 7.0}, DType::BFloat16))});
  CHECK(digamma.dtype() == DType::BFloat16);
  check_values(digamma, {3}, {1.1015625, -3.5, 1.875}, 1e-2);
  check_values(call1("aten::i0", {tv(make({3}, {0.5, -3.0, 9.0}, DType::Float16))}), {3},
               {1.0634765625, 4.87890625, 1094.0}, 1e-3);
  check_values(call1("aten::sinc", {tv(make({4}, {0.0, 0.5, -1.5, 2.0}))}), {4},
               {1.0, 0.6366197466850281, -0.21220658719539642, 2.7827534054836178e-08});
  check_values(call1("aten::special_entr", {tv(make({5}, {0.0, 0.5, -1.0, kNaN, 2.0}))}), {5},
               {0.0, 0.3465735912322998, -kInf, kNaN, -1.3862943649291992});
  // ndtr evaluates (1 + erf(x / sqrt 2)) / 2, so the far tail is exactly 0 as in torch.
  Tensor ndtr = call1("aten::special_ndtr", {tv(make({3}, {-10.0, 0.0, 1.5}))});
  CHECK(ndtr.item_as_double(0) == 0.0);
  check_values(ndtr, {3}, {0.0, 0.5, 0.9331927299499512});
  check_values(call1("aten::special_erfcx", {tv(make_i64({3}, {-1, 0, 3}))}), {3},
               {5.0089802742004395, 1.0, 0.17900115251541138}, 1e-5);
  check_values(call1("aten::special_ndtri", {tv(make({3}, {0.025, 0.5, 0.975}))}), {3},
               {-1.9599637985229492, 0.0, 1.959964394569397}, 1e-5);
}

TEST_CASE("float32/float64-only special functions refuse 16-bit floats", "[ops][special]") {
  Tensor half = make({2}, {0.5, 1.0}, DType::Float16);
  for (const char* name : {"aten::special_bessel_j0", "aten::special_erfcx", "aten::special_log_ndtr",
                           "aten::special_modified_bessel_k1", "aten::special_airy_ai"})
    CHECK(error_code_of(name, {tv(half)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::special_chebyshev_polynomial_t", {tv(half), tv(make_i64({1}, {2}))}) ==
        ErrorCode::BadInput);
  // ... while the ones ATen has for 16-bit floats accept them.
  CHECK(call1("aten::special_i1e", {tv(half)}).dtype() == DType::Float16);
}

TEST_CASE("xlogy and xlog1py: zero times anything is 0 unless NaN, numbers in either slot", "[ops][special]") {
  check_values(call1("aten::xlogy.Tensor", {tv(make({4}, {0.0, 0.0, 2.0, 3.0})), tv(make({4}, {kNaN, 0.0, 0.0, 2.5}))}),
               {4}, {kNaN, 0.0, -kInf, 2.7488722801208496});
  Tensor scalar_self = call1("aten::xlogy.Scalar_Self", {iv(2), tv(make_i64({2}, {1, 4}))});
  CHECK(scalar_self.dtype() == DType::Float32);
  check_values(scalar_self, {2}, {0.0, 2.7725887298583984});
  check_values(call1("aten::special_xlog1py", {tv(make({2}, {0.0, 2.0})), tv(make({2}, {-1.0, 0.5}))}), {2},
               {0.0, 0.8109301924705505});
}

TEST_CASE("orthogonal polynomials: broadcasting, number degree, integer inputs", "[ops][special]") {
  check_values(call1("aten::special_chebyshev_polynomial_t",
                     {tv(make({2, 1}, {0.5, 2.0})), tv(make_i64({4}, {0, 1, 2, 3}))}),
               {2, 4}, {1.0, 0.5, -0.5, -1.0, 1.0, 2.0, 7.0, 26.0});
  check_values(call1("aten::special_hermite_polynomial_h.n_scalar", {tv(make({2}, {0.5, -1.0})), iv(3)}), {2},
               {-5.0, 4.0});
  Tensor ints = call1("aten::special_laguerre_polynomial_l", {tv(make_i64({2}, {1, 2})), tv(make_i64({2}, {2, 3}))});
  CHECK(ints.dtype() == DType::Float32);
  check_values(ints, {2}, {-0.5, -0.3333333432674408});
  // A fractional degree is truncated; a negative one gives 0.
  check_values(call1("aten::special_chebyshev_polynomial_u", {tv(make({2}, {0.3, 0.3})), tv(make({2}, {2.7, -0.5}))}),
               {2}, {-0.64, 1.0});
}

TEST_CASE("zeta and igamma: number operands, float16, integers refused by igamma", "[ops][special]") {
  check_values(call1("aten::special_zeta.self_scalar", {dv(2.0), tv(make({2}, {1.0, 2.0}))}), {2},
               {1.644934058189392, 0.6449340581893921});
  check_values(call1("aten::special_zeta.other_scalar", {tv(make({2}, {2.0, 3.0})), dv(1.0)}), {2},
               {1.644934058189392, 1.202056884765625});
  Tensor half = call1("aten::igamma", {tv(make({2}, {0.5, 2.0}, DType::Float16)), tv(make({2}, {1.0, 3.0}, DType::Float16))});
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {2}, {0.8427734375, 0.80078125}, 1e-3);
  CHECK(error_code_of("aten::igammac", {tv(make_i64({1}, {1})), tv(make_i64({1}, {2}))}) == ErrorCode::BadInput);
}
