// Matrix functions and small compositions (ops/linalg/matrix_function_ops.cpp,
// matrix_norm_ops.cpp's tensorinv/tensorsolve). Golden values are torch 2.6's,
// printed by tools/torch/gen_linalg_goldens.py.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor G(DType d = DType::Float64) { return make({3, 3}, {0, 2, 1, 3, 1, 4, 1, 0, 2}, d); }

}  // namespace

TEST_CASE("matrix_exp picks the Taylor degree from the 1-norm", "[linalg]") {
  Tensor quarter = call1("aten::div.Scalar", {tv(G()), dv(4)});
  const std::vector<double> small{1.2767959626979455, 0.6140372073980314, 0.6836435955648934,
                                  1.0884446963707706, 1.5419673450785307, 1.6883938492988027,
                                  0.34886582501744656, 0.08369444263686174, 1.7234442848222544};
  check_values(call1("aten::linalg_matrix_exp", {tv(quarter)}), {3, 3}, small, 1e-12);
  check_values(call1("aten::matrix_exp", {tv(quarter.to(DType::Float32))}), {3, 3}, small, 1e-6);
  // Norm 7: scaled by 2^-3 (double's degree-18 bound) and squared three times.
  check_values(call1("aten::matrix_exp", {tv(G())}), {3, 3},
               {16.488941616720332, 11.740779891744232, 29.366958619120403, 28.054089247948916, 19.748601710009318,
                52.19958816190305, 8.48111979845526, 5.221459705166286, 17.78680209813202},
               1e-10);
  check_values(call1("aten::matrix_exp", {tv(make({2, 1, 1}, {0, 1}, DType::Float64))}), {2, 1, 1}, {1, 2.718281828459045},
               1e-12);
  Tensor zero = make({2, 2}, {0, 0, 0, 0}, DType::Float64);
  check_values(call1("aten::matrix_exp", {tv(zero)}), {2, 2}, {1, 0, 0, 1});
  CHECK(error_code_of("aten::matrix_exp", {tv(make({2, 3}, {1, 2, 3, 4, 5, 6}))}) == ErrorCode::BadInput);
}

TEST_CASE("matrix_power, multi_dot, vander, vecdot, cross and diagonal", "[linalg]") {
  check_values(call1("aten::linalg_matrix_power", {tv(G()), iv(-3)}), {3, 3},
               {-0.24, 0.88, -2.44, 0.04, 0.52, -1.76, 0.12, -0.64, 1.92}, 1e-12);
  check_values(call1("aten::matrix_power", {tv(G()), iv(0)}), {3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  Tensor g5 = call1("aten::linalg_matrix_power", {tv(G()), iv(5)});
  Tensor g2 = call1("aten::mm", {tv(G()), tv(G())});
  check_values(g5, {3, 3}, values_of(call1("aten::mm", {tv(call1("aten::mm", {tv(g2), tv(g2)})), tv(G())})), 1e-9);
  Tensor b = make({3, 2}, {1, 2, 3, 4, 5, 6}, DType::Float64);
  Tensor v = make({3}, {1, 3, 5}, DType::Float64);
  check_values(call1("aten::linalg_multi_dot", {tl({v, G(), G(), b})}), {2}, {537, 688}, 1e-12);
  check_values(call1("aten::linalg_multi_dot", {tl({v, v})}), {}, {35});
  CHECK(error_code_of("aten::linalg_multi_dot", {tl({v})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::linalg_multi_dot", {tl({G(), v, G()})}) == ErrorCode::BadInput);
  check_values(call1("aten::linalg_vander", {tv(make({3}, {1, 2, 3})), iv(4)}), {3, 4},
               {1, 1, 1, 1, 1, 2, 4, 8, 1, 3, 9, 27});
  CHECK(call1("aten::linalg_vander", {tv(make_i64({2}, {2, 3}))}).dtype() == DType::Int64);
  check_values(call1("aten::linalg_vander", {tv(make({}, {2})), iv(2)}), {1, 2}, {1, 2});
  check_values(call1("aten::linalg_vecdot", {tv(b), tv(b), iv(0)}), {2}, {35, 56});
  CHECK(error_code_of("aten::linalg_vecdot", {tv(b), tv(b.to(DType::Float32))}) == ErrorCode::BadInput);
  Tensor x = make({1, 3}, {1, 0, 0}), y = make({1, 3}, {0, 1, 0});
  check_values(call1("aten::linalg_cross", {tv(x), tv(y)}), {1, 3}, {0, 0, 1});
  Tensor cube = call1("aten::arange", {iv(8)});
  Tensor c3 = call1("aten::reshape", {tv(cube), ints({2, 2, 2})});
  check_values(call1("aten::linalg_diagonal", {tv(c3)}), {2, 2}, {0, 3, 4, 7});
  check_values(call1("aten::linalg_diagonal", {tv(c3), iv(0), iv(0), iv(1)}), {2, 2}, {0, 6, 1, 7});
}

TEST_CASE("tensorinv and tensorsolve", "[linalg]") {
  Tensor a = call1("aten::reshape", {tv(G()), ints({3, 1, 3})});
  Tensor inv = call1("aten::linalg_tensorinv", {tv(a), iv(2)});
  CHECK(inv.sizes() == Shape{3, 3, 1});
  check_values(inv, {3, 3, 1}, {-0.4, 0.8, -1.4, 0.4, 0.2, -0.6, 0.2, -0.4, 1.2}, 1e-12);
  CHECK(error_code_of("aten::linalg_tensorinv", {tv(a), iv(0)}) == ErrorCode::BadInput);
  Tensor rhs = make({3}, {1, 3, 5}, DType::Float64);
  check_values(call1("aten::linalg_tensorsolve", {tv(G()), tv(rhs)}), {3}, {-5, -2, 5}, 1e-12);
  Tensor gt = call1("aten::transpose.int", {tv(G()), iv(0), iv(1)});
  check_values(call1("aten::linalg_tensorsolve", {tv(gt), tv(rhs), ints({0})}), {3}, {-5, -2, 5}, 1e-12);
}
