// LU, solvers, determinants, Cholesky, triangular solves and QR
// (ops/linalg/{lu,solve,determinant,cholesky,qr}_ops.cpp). Golden values are
// torch 2.6's float64 results, printed by tools/torch/gen_linalg_goldens.py.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

// S symmetric positive-definite; G needs row pivots (G[0][0] = 0); W is wide.
Tensor S(DType d = DType::Float64) { return make({3, 3}, {4, 1, 2, 1, 5, 3, 2, 3, 6}, d); }
Tensor G(DType d = DType::Float64) { return make({3, 3}, {0, 2, 1, 3, 1, 4, 1, 0, 2}, d); }
Tensor B() { return make({3, 2}, {1, 2, 3, 4, 5, 6}, DType::Float64); }
Tensor W() { return make({3, 4}, {1, 2, 3, 4, 2, 0, 1, 1, 0, 1, 1, 3}, DType::Float64); }
Tensor transposed(const Tensor& t) { return call1("aten::transpose.int", {tv(t), iv(-2), iv(-1)}); }

std::vector<double> ints_of(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(static_cast<double>(t.item_as_int(i)));
  return out;
}

}  // namespace

TEST_CASE("linalg_lu_factor_ex pivots like getrf", "[linalg]") {
  auto out = call("aten::linalg_lu_factor_ex", {tv(G())});
  check_values(out[0].tensor, {3, 3}, {3.0, 1.0, 4.0, 0.0, 2.0, 1.0, 1 / 3.0, -1 / 6.0, 5 / 6.0}, 1e-12);
  CHECK(out[1].tensor.dtype() == DType::Int32);
  CHECK(ints_of(out[1].tensor) == std::vector<double>{2, 2, 3});
  CHECK(out[2].tensor.dtype() == DType::Int32);
  CHECK(out[2].tensor.dim() == 0);
  auto wide = call("aten::linalg_lu_factor_ex", {tv(W())});
  check_values(wide[0].tensor, {3, 4}, {2.0, 0.0, 1.0, 1.0, 0.5, 2.0, 2.5, 3.5, 0.0, 0.5, -0.25, 1.25}, 1e-12);
  auto plu = call("aten::linalg_lu", {tv(W())});
  check_values(plu[0].tensor, {3, 3}, {0, 1, 0, 1, 0, 0, 0, 0, 1});
  check_values(plu[1].tensor, {3, 3}, {1, 0, 0, 0.5, 1, 0, 0, 0.5, 1});
  check_values(plu[2].tensor, {3, 4}, {2, 0, 1, 1, 0, 2, 2.5, 3.5, 0, 0, -0.25, 1.25});
  // A singular matrix: info names the first zero pivot, the _ex form does not throw.
  Tensor singular = make({2, 2, 2}, {1, 2, 3, 4, 1, 2, 2, 4}, DType::Float64);
  CHECK(ints_of(call("aten::linalg_lu_factor_ex", {tv(singular)})[2].tensor) == std::vector<double>{0, 2});
  CHECK(error_code_of("aten::linalg_lu_factor", {tv(singular)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::linalg_lu_factor", {tv(G()), bv(false)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::linalg_lu_factor_ex", {tv(make_i64({2, 2}, {1, 2, 3, 4}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::linalg_lu_factor_ex", {tv(make({2}, {1, 2}))}) == ErrorCode::BadInput);
}

TEST_CASE("lu_unpack and linalg_lu_solve", "[linalg]") {
  auto f = call("aten::linalg_lu_factor", {tv(G())});
  auto unpacked = call("aten::lu_unpack", {f[0], f[1]});
  Tensor product = call1("aten::matmul", {tv(unpacked[0].tensor), tv(call1("aten::matmul", {unpacked[1], unpacked[2]}))});
  check_values(product, {3, 3}, values_of(G()), 1e-12);
  check_values(call1("aten::linalg_lu_solve", {f[0], f[1], tv(B()), bv(true), bv(true)}), {3, 2},
               {1.8, 2.0, -0.6, 0.0, 2.8, 2.0}, 1e-12);
  check_values(call1("aten::linalg_lu_solve", {f[0], f[1], tv(transposed(B())), bv(false)}), {2, 3},
               {1.8, -0.6, 2.8, 2.0, 0.0, 2.0}, 1e-12);
  // X A^T = B^T is X = (A^-1 B)^T.
  check_values(call1("aten::linalg_lu_solve", {f[0], f[1], tv(transposed(B())), bv(false), bv(true)}), {2, 3},
               values_of(transposed(call1("aten::linalg_solve", {tv(G()), tv(B())}))), 1e-12);
  check_values(call1("aten::lu_solve", {tv(B()), f[0], f[1]}), {3, 2},
               values_of(call1("aten::linalg_solve", {tv(G()), tv(B())})), 1e-12);
  CHECK(error_code_of("aten::linalg_lu_solve", {f[0], f[1], tv(make({2, 2}, {1, 2, 3, 4}, DType::Float64))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::lu_unpack", {f[0], tv(make_i64({3}, {1, 2, 3}))}) == ErrorCode::BadInput);
}

TEST_CASE("linalg_inv, linalg_solve and their _ex forms", "[linalg]") {
  check_values(call1("aten::linalg_inv", {tv(G())}), {3, 3}, {-0.4, 0.8, -1.4, 0.4, 0.2, -0.6, 0.2, -0.4, 1.2}, 1e-12);
  check_values(call1("aten::linalg_inv", {tv(G(DType::Float32))}), {3, 3},
               {-0.4, 0.8, -1.4, 0.4, 0.2, -0.6, 0.2, -0.4, 1.2}, 1e-6);
  check_values(call1("aten::linalg_solve", {tv(G()), tv(make({3}, {1, 3, 5}, DType::Float64))}), {3}, {-5, -2, 5},
               1e-12);
  check_values(call1("aten::linalg_solve", {tv(G()), tv(transposed(B())), bv(false)}), {2, 3},
               {1.8, -0.6, 2.8, 2.0, 0.0, 2.0}, 1e-12);
  auto ex = call("aten::_linalg_solve_ex", {tv(G()), tv(B())});
  CHECK(ex.size() == 4);
  CHECK(ints_of(ex[2].tensor) == std::vector<double>{2, 2, 3});
  // Batched A against one B broadcasts.
  Tensor batch = call1("aten::stack", {tl({G(), S()})});
  CHECK(call1("aten::linalg_solve", {tv(batch), tv(B())}).sizes() == Shape{2, 3, 2});
  Tensor singular = make({2, 2}, {1, 2, 2, 4}, DType::Float64);
  auto inv_ex = call("aten::linalg_inv_ex", {tv(singular)});
  CHECK(inv_ex[1].tensor.item_as_int() == 2);
  try {
    call("aten::linalg_inv", {tv(singular)});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("linalg.inv: The diagonal element 2 is zero, the inversion could not be "
                                     "completed because the input matrix is singular.") != std::string::npos);
  }
  CHECK(error_code_of("aten::linalg_solve", {tv(singular), tv(make({2}, {1, 2}, DType::Float64))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::linalg_inv", {tv(W())}) == ErrorCode::BadInput);
  CHECK(call1("aten::linalg_inv", {tv(make({1, 1, 0, 0}, {}))}).sizes() == Shape{1, 1, 0, 0});
}

TEST_CASE("determinants", "[linalg]") {
  check_values(call1("aten::linalg_det", {tv(G())}), {}, {-5}, 1e-12);
  Tensor negated = call1("aten::neg", {tv(G())});
  auto sl = call("aten::linalg_slogdet", {tv(negated)});
  check_values(sl[0].tensor, {}, {1});
  check_values(sl[1].tensor, {}, {1.6094379124341005}, 1e-12);
  check_values(call1("aten::logdet", {tv(G())}), {}, {kNaN});
  Tensor singular = make({2, 2}, {1, 2, 2, 4}, DType::Float64);
  check_values(call1("aten::det", {tv(singular)}), {}, {0});
  auto s0 = call("aten::_linalg_slogdet", {tv(singular)});
  check_values(s0[0].tensor, {}, {0});
  check_values(s0[1].tensor, {}, {-kInf});
  check_values(call1("aten::linalg_det", {tv(make({0, 0}, {}))}), {}, {1});
  CHECK(call("aten::_linalg_det", {tv(G())}).size() == 3);
}

TEST_CASE("cholesky family", "[linalg]") {
  const std::vector<double> lower{2.0, 0.0, 0.0, 0.5, 2.179449471770337, 0.0, 1.0, 1.1470786693528088, 1.9194297398747862};
  check_values(call1("aten::linalg_cholesky", {tv(S())}), {3, 3}, lower, 1e-12);
  check_values(call1("aten::cholesky", {tv(S()), bv(true)}), {3, 3},
               values_of(transposed(call1("aten::linalg_cholesky", {tv(S())}))), 1e-12);
  Tensor l = call1("aten::linalg_cholesky", {tv(S())});
  check_values(call1("aten::cholesky_solve", {tv(B()), tv(l)}), {3, 2},
               {-0.2, 0.0, 0.14285714285714268, 0.2857142857142856, 0.8285714285714287, 0.8571428571428572}, 1e-12);
  check_values(call1("aten::cholesky_inverse", {tv(transposed(l)), bv(true)}), {3, 3},
               {0.3, 0, -0.1, 0, 0.28571428571428564, -0.14285714285714285, -0.1, -0.14285714285714285,
                0.27142857142857146},
               1e-12);
  check_values(call1("aten::cholesky_inverse", {tv(l)}), {3, 3}, values_of(call1("aten::linalg_inv", {tv(S())})), 1e-12);
  Tensor indefinite = make({2, 2}, {1, 2, 2, 1}, DType::Float64);
  CHECK(call("aten::linalg_cholesky_ex", {tv(indefinite)})[1].tensor.item_as_int() == 2);
  try {
    call("aten::linalg_cholesky", {tv(indefinite)});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("linalg.cholesky: The factorization could not be completed because the input is "
                                     "not positive-definite (the leading minor of order 2 is not positive-definite).") !=
          std::string::npos);
  }
}

TEST_CASE("triangular solves", "[linalg]") {
  check_values(call1("aten::linalg_solve_triangular", {tv(G()), tv(B()), bv(true)}), {3, 2}, {kInf, kInf, -7, -8, 2.5, 3});
  check_values(call1("aten::linalg_solve_triangular", {tv(G()), tv(transposed(B())), bv(false), bv(false), bv(true)}),
               {2, 3}, {-13, 3, 5, -16, 4, 6}, 1e-12);
  auto ts = call("aten::triangular_solve", {tv(B()), tv(G()), bv(true), bv(true)});
  check_values(ts[0].tensor, {3, 2}, {kInf, kInf, -kInf, -kInf, kNaN, kNaN});
  check_values(ts[1].tensor, {3, 3}, values_of(G()));
  CHECK(error_code_of("aten::linalg_solve_triangular", {tv(G()), tv(transposed(B())), bv(true)}) == ErrorCode::BadInput);
}

TEST_CASE("geqrf, householder_product, ormqr and qr", "[linalg]") {
  Tensor tall = transposed(W());
  auto qr = call("aten::geqrf", {tv(tall)});
  check_values(qr[0].tensor, {4, 3},
               {-5.477225575051661, -1.6431676725154984, -3.1037611591959413, 0.3087741775897697, 1.8165902124584952,
                -0.6055300708194984, 0.4631612663846546, 0.23368100537401384, 1.0, 0.6175483551795394,
                0.42489529861052877, -0.508756401186029},
               1e-12);
  check_values(qr[1].tensor, {3}, {1.1825741858350554, 1.6192459335009823, 1.588772998208662}, 1e-12);
  const std::vector<double> q_reduced{-0.18257418583505536, 0.9358192003574064, 0.0, -0.3651483716701107,
                                      -0.33028912953790823, -0.33333333333333326, -0.5477225575051661,
                                      0.05504818825631802, -0.6666666666666666, -0.7302967433402214,
                                      -0.11009637651263604, 0.6666666666666666};
  check_values(call1("aten::linalg_householder_product", {qr[0], qr[1]}), {4, 3}, q_reduced, 1e-12);
  Tensor eye_cols = make({4, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, DType::Float64);
  check_values(call1("aten::ormqr", {qr[0], qr[1], tv(eye_cols), bv(true), bv(true)}), {4, 3},
               {-0.18257418583505536, -0.3651483716701107, -0.5477225575051661, 0.9358192003574064,
                -0.33028912953790834, 0.05504818825631799, 0, -0.3333333333333333, -0.6666666666666667,
                -0.3015113445777637, -0.8040302522073697, 0.502518907629606},
               1e-12);
  auto complete = call("aten::linalg_qr", {tv(tall), sv("complete")});
  check_values(complete[0].tensor, {4, 4},
               {-0.18257418583505536, 0.9358192003574064, 0.0, -0.3015113445777637, -0.3651483716701107,
                -0.33028912953790823, -0.33333333333333326, -0.8040302522073696, -0.5477225575051661,
                0.05504818825631802, -0.6666666666666666, 0.502518907629606, -0.7302967433402214, -0.11009637651263604,
                0.6666666666666666, 0.10050378152592124},
               1e-12);
  check_values(complete[1].tensor, {4, 3},
               {-5.477225575051661, -1.6431676725154984, -3.1037611591959413, 0, 1.8165902124584952,
                -0.6055300708194984, 0, 0, 1, 0, 0, 0},
               1e-12);
  auto reduced = call("aten::qr", {tv(tall)});
  check_values(reduced[0].tensor, {4, 3}, q_reduced, 1e-12);
  CHECK(call("aten::linalg_qr", {tv(tall), sv("r")})[0].tensor.sizes() == Shape{0});
  CHECK(error_code_of("aten::linalg_qr", {tv(tall), sv("full")}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::linalg_householder_product", {tv(W()), tv(make({3}, {1, 1, 1}, DType::Float64))}) ==
        ErrorCode::BadInput);
  CHECK(call("aten::geqrf", {tv(make({2, 2, 0}, {}))})[1].tensor.sizes() == Shape{2, 0});
}

TEST_CASE("ldl_factor pivots like sytf2, ldl_solve solves", "[linalg]") {
  auto spd = call("aten::linalg_ldl_factor", {tv(S())});
  check_values(spd[0].tensor, {3, 3}, {4, 0, 0, 0.25, 4.75, 0, 0.5, 10 / 19.0, 70 / 19.0}, 1e-12);
  CHECK(ints_of(spd[1].tensor) == std::vector<double>{1, 2, 3});
  // A zero diagonal forces a 2x2 block with rows 2 and 3 swapped (torch: pivots [-3, -3, 3]).
  Tensor z = make({3, 3}, {0, 1, 2, 1, 0, 3, 2, 3, 0}, DType::Float64);
  auto blocked = call("aten::linalg_ldl_factor_ex", {tv(z)});
  check_values(blocked[0].tensor, {3, 3}, {0, 0, 0, 2, 0, 0, 1.5, 0.5, -3}, 1e-12);
  CHECK(ints_of(blocked[1].tensor) == std::vector<double>{-3, -3, 3});
  check_values(call1("aten::linalg_ldl_solve", {blocked[0], blocked[1], tv(B())}), {3, 2},
               {2, 2, 1 / 3.0, 2 / 3.0, 1 / 3.0, 2 / 3.0}, 1e-12);
  auto zero = call("aten::linalg_ldl_factor_ex", {tv(make({2, 2}, {0, 0, 0, 0}))});
  CHECK(zero[2].tensor.item_as_int() == 1);
  CHECK(ints_of(zero[1].tensor) == std::vector<double>{1, 2});
  CHECK(error_code_of("aten::linalg_ldl_factor", {tv(make({2, 2}, {0, 0, 0, 0}))}) == ErrorCode::BadInput);
  CHECK(call("aten::linalg_ldl_factor", {tv(make({0, 2, 2}, {}))})[1].tensor.sizes() == Shape{0, 2});
}

TEST_CASE("solvers take strided inputs and broadcast batches", "[linalg]") {
  // G^T as a transposed view: solving with it equals solving with its contiguous copy.
  Tensor gt_view = transposed(G());
  Tensor gt_copy = call1("aten::clone", {tv(gt_view)});
  Tensor b_view = transposed(make({2, 3}, {1, 3, 5, 2, 4, 6}, DType::Float64));
  check_values(call1("aten::linalg_solve", {tv(gt_view), tv(b_view)}), {3, 2},
               values_of(call1("aten::linalg_solve", {tv(gt_copy), tv(B())})), 1e-12);
  // One factorization against a batch of right-hand sides.
  auto f = call("aten::linalg_lu_factor", {tv(G())});
  Tensor rhs = call1("aten::stack", {tl({B(), call1("aten::neg", {tv(B())})})});
  Tensor x = call1("aten::linalg_lu_solve", {f[0], f[1], tv(rhs)});
  CHECK(x.sizes() == Shape{2, 3, 2});
  std::vector<double> first = values_of(call1("aten::linalg_solve", {tv(G()), tv(B())}));
  std::vector<double> both = first;
  for (double v : first) both.push_back(-v);
  check_values(x, {2, 3, 2}, both, 1e-12);
  // Empty batches and empty matrices keep their shapes.
  CHECK(call1("aten::linalg_solve", {tv(make({2, 0, 0}, {}, DType::Float64)), tv(make({2, 0, 3}, {}, DType::Float64))})
            .sizes() == Shape{2, 0, 3});
  CHECK(call("aten::linalg_cholesky_ex", {tv(make({1, 1, 0, 0}, {}))})[1].tensor.sizes() == Shape{1, 1});
  check_values(call1("aten::cholesky_inverse", {tv(make({0, 0}, {}))}), {0, 0}, {});
}
