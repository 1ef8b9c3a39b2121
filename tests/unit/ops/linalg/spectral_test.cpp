// Eigen- and singular value decompositions and what is built on them
// (ops/linalg/eigen_svd_ops.cpp, matrix_norm_ops.cpp). Golden values are torch
// 2.6's float64 results, printed by tools/torch/gen_linalg_goldens.py;
// eigen- and singular vectors are compared up to the sign of each column.
#include <catch2/catch.hpp>

#include <cmath>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor S() { return make({3, 3}, {4, 1, 2, 1, 5, 3, 2, 3, 6}, DType::Float64); }
Tensor G() { return make({3, 3}, {0, 2, 1, 3, 1, 4, 1, 0, 2}, DType::Float64); }
Tensor W() { return make({3, 4}, {1, 2, 3, 4, 2, 0, 1, 1, 0, 1, 1, 3}, DType::Float64); }

// Columns of `got` equal those of `want` (row-major n x n) up to one sign per column.
void check_columns_up_to_sign(const Tensor& got, const std::vector<double>& want, int64_t n) {
  const std::vector<double> g = values_of(got);
  REQUIRE(g.size() == want.size());
  for (int64_t j = 0; j < n; ++j) {
    const double sign = g[j] * want[j] + g[n + j] * want[n + j] + g[2 * n + j] * want[2 * n + j] < 0 ? -1 : 1;
    for (int64_t i = 0; i < n; ++i) CHECK(std::abs(sign * g[i * n + j] - want[i * n + j]) < 1e-10);
  }
}

}  // namespace

TEST_CASE("eigh: ascending eigenvalues, unit eigenvectors", "[linalg]") {
  const std::vector<double> values{2.1943971674224088, 3.3867701566075477, 9.418832675970037};
  check_values(call1("aten::linalg_eigvalsh", {tv(S())}), {3}, values, 1e-12);
  auto eig = call("aten::linalg_eigh", {tv(S())});
  check_values(eig[0].tensor, {3}, values, 1e-12);
  check_columns_up_to_sign(eig[1].tensor,
                           {-0.4412246968734644, -0.8155834192895004, -0.37435872241603624, -0.5773502691896257,
                            0.5773502691896258, -0.5773502691896254, 0.6870134158337713, -0.03860508835262272,
                            -0.7256185041863941},
                           3);
  // UPLO picks the triangle that is read: a matrix whose two triangles disagree.
  Tensor lopsided = make({2, 2}, {2, 100, 1, 2}, DType::Float64);
  check_values(call1("aten::linalg_eigvalsh", {tv(lopsided)}), {2}, {1, 3}, 1e-12);
  check_values(call1("aten::linalg_eigvalsh", {tv(lopsided), sv("U")}), {2}, {-98, 102}, 1e-12);
  auto values_only = call("aten::_linalg_eigh", {tv(S()), sv("L"), bv(false)});
  CHECK(values_only[1].tensor.numel() == 0);
  CHECK(error_code_of("aten::linalg_eigh", {tv(S()), sv("X")}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::linalg_eigh", {tv(W())}) == ErrorCode::BadInput);
}

TEST_CASE("svd: descending singular values, orthonormal factors", "[linalg]") {
  const std::vector<double> s{6.5263947423151185, 1.9476820287330794, 0.7827556339188938};
  check_values(call1("aten::linalg_svdvals", {tv(W())}), {3}, s, 1e-12);
  auto usv = call("aten::linalg_svd", {tv(W())});
  CHECK(usv[0].tensor.sizes() == Shape{3, 3});
  CHECK(usv[2].tensor.sizes() == Shape{4, 4});
  check_columns_up_to_sign(usv[0].tensor,
                           {0.8366311115294572, 0.028255508285555373, -0.547037484522322, 0.2585494394239466,
                            -0.9007913451443155, 0.3488941671720205, 0.4829084494959142, 0.43333194985440415,
                            0.7609355101720724},
                           3);
  // U diag(S) Vh[:3] reconstructs W, and the full Vh is orthogonal.
  auto reduced = call("aten::_linalg_svd", {tv(W())});
  Tensor us = call1("aten::mul.Tensor", {reduced[0], tv(call1("aten::unsqueeze", {reduced[1], iv(0)}))});
  check_values(call1("aten::matmul", {tv(us), reduced[2]}), {3, 4}, values_of(W()), 1e-12);
  Tensor vh = usv[2].tensor;
  check_values(call1("aten::matmul", {tv(vh), tv(call1("aten::transpose.int", {tv(vh), iv(0), iv(1)}))}), {4, 4},
               {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, 1e-12);
  auto old = call("aten::svd", {tv(W()), bv(true), bv(false)});
  CHECK(old[0].tensor.sizes() == Shape{3, 3});
  CHECK(old[2].tensor.sizes() == Shape{4, 4});
  CHECK(values_of(old[2].tensor) == std::vector<double>(16, 0.0));
  CHECK(call("aten::linalg_svd", {tv(make({0, 5}, {}))})[2].tensor.sizes() == Shape{5, 5});
}

TEST_CASE("pinv, matrix_rank, matrix norms and cond", "[linalg]") {
  check_values(call1("aten::linalg_pinv.atol_rtol_tensor", {tv(W())}), {4, 3},
               {-0.12121212121212109, 0.5151515151515151, 0, 0.3434343434343432, -0.2929292929292929,
                -0.333333333333333, 0.5353535353535349, -0.19191919191919177, -0.6666666666666661, -0.2929292929292926,
                0.16161616161616144, 0.6666666666666662},
               1e-12);
  check_values(call1("aten::linalg_pinv.atol_rtol_tensor", {tv(S()), none(), none(), bv(true)}), {3, 3},
               values_of(call1("aten::linalg_inv", {tv(S())})), 1e-12);
  CHECK(call1("aten::pinverse", {tv(make({3, 0}, {}))}).sizes() == Shape{0, 3});
  Tensor rank_deficient = make({3, 3}, {0, 2, 1, 3, 1, 4, 0, 0, 0}, DType::Float64);
  Tensor both = call1("aten::stack", {tl({G(), rank_deficient})});
  Tensor rank = call1("aten::linalg_matrix_rank.atol_rtol_tensor", {tv(both)});
  CHECK(rank.dtype() == DType::Int64);
  check_values(rank, {2}, {3, 2});
  check_values(call1("aten::linalg_matrix_rank.atol_rtol_float", {tv(G()), dv(3.0)}), {}, {1});
  check_values(call1("aten::linalg_matrix_norm.str_ord", {tv(W()), sv("nuc")}), {}, {9.256832404967092}, 1e-12);
  check_values(call1("aten::linalg_matrix_norm", {tv(W()), dv(-2)}), {}, {0.7827556339188938}, 1e-12);
  check_values(call1("aten::linalg_matrix_norm", {tv(W()), dv(INFINITY)}), {}, {10});
  check_values(call1("aten::linalg_matrix_norm", {tv(W()), dv(1), ints({-1, 0}), bv(true)}), {1, 1}, {10});
  CHECK(error_code_of("aten::linalg_matrix_norm", {tv(W()), dv(3)}) == ErrorCode::BadInput);
  check_values(call1("aten::linalg_norm", {tv(make({2}, {3, 4}))}), {}, {5});
  check_values(call1("aten::linalg_norm.ord_str", {tv(W()), sv("nuc")}), {}, {9.256832404967092}, 1e-12);
  check_values(call1("aten::linalg_cond", {tv(G())}), {}, {12.233698447600851}, 1e-12);
  check_values(call1("aten::linalg_cond", {tv(G()), dv(1)}), {}, {22.4}, 1e-12);
  Tensor singular = make({2, 2}, {1, 2, 2, 4}, DType::Float64);
  check_values(call1("aten::linalg_cond", {tv(singular), dv(1)}), {}, {kInf});
  check_values(call1("aten::linalg_cond.p_str", {tv(singular), sv("fro")}), {}, {kInf});
}
