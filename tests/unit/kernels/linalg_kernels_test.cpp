// The kernels of src/kernels/linalg checked against their defining
// identities on pseudo-random matrices of several sizes and shapes (square,
// tall, wide, 1x1): P A = L U, L L^T = A, Q R = A with orthonormal Q,
// A V = V diag(w), U diag(S) V^T = A, A X = B for every solver, and
// exp(A) exp(-A) = I. Golden values from torch are in tests/unit/ops/linalg/.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "kernels/linalg/cholesky.h"
#include "kernels/linalg/householder.h"
#include "kernels/linalg/jacobi_svd.h"
#include "kernels/linalg/ldl.h"
#include "kernels/linalg/lu_factor.h"
#include "kernels/linalg/matrix_exp.h"
#include "kernels/linalg/symmetric_eigen.h"
#include "kernels/linalg/triangular_solve.h"

using namespace pt2web;

namespace {

using Matrix = std::vector<double>;

Matrix random_matrix(int64_t rows, int64_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Matrix m(static_cast<size_t>(rows * cols));
  for (double& x : m) x = u(rng);
  return m;
}

Matrix multiply(const Matrix& a, const Matrix& b, int64_t m, int64_t k, int64_t n) {
  Matrix c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

Matrix transpose(const Matrix& a, int64_t rows, int64_t cols) {
  Matrix t(a.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
  return t;
}

// A symmetric positive-definite matrix: R R^T + n I.
Matrix spd(int64_t n, unsigned seed) {
  Matrix r = random_matrix(n, n, seed);
  Matrix a = multiply(r, transpose(r, n, n), n, n, n);
  for (int64_t i = 0; i < n; ++i) a[i * n + i] += static_cast<double>(n);
  return a;
}

void check_close(const Matrix& got, const Matrix& want, double tolerance = 1e-10) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(std::abs(got[i] - want[i]) < tolerance);
}

Matrix identity(int64_t n) {
  Matrix eye(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) eye[i * n + i] = 1;
  return eye;
}

}  // namespace

TEST_CASE("lu_factor: P A = L U, pivots 1-based", "[linalg_kernels]") {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {4, 4}, {7, 3}, {3, 7}, {9, 9}}) {
    const Matrix a = random_matrix(m, n, static_cast<unsigned>(m * 10 + n));
    Matrix lu = a;
    const int64_t k = std::min(m, n);
    std::vector<int32_t> pivots(static_cast<size_t>(k));
    CHECK(linalg::lu_factor(lu.data(), m, n, pivots.data()) == 0);
    Matrix l(static_cast<size_t>(m * k), 0.0), u(static_cast<size_t>(k * n), 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < k; ++j) l[i * k + j] = i > j ? lu[i * n + j] : i == j ? 1 : 0;
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = i; j < n; ++j) u[i * n + j] = lu[i * n + j];
    Matrix pa = a;
    for (int64_t j = 0; j < k; ++j) {
      CHECK(pivots[j] >= j + 1);
      std::swap_ranges(pa.begin() + j * n, pa.begin() + (j + 1) * n, pa.begin() + (pivots[j] - 1) * n);
    }
    check_close(multiply(l, u, m, k, n), pa);
    for (double x : l) CHECK(std::abs(x) <= 1.0);  // partial pivoting bounds the multipliers
  }
  Matrix singular{1, 2, 2, 4};
  std::vector<int32_t> pivots(2);
  CHECK(linalg::lu_factor(singular.data(), 2, 2, pivots.data()) == 2);
}

TEST_CASE("triangular_solve: every triangle, transpose and unit diagonal", "[linalg_kernels]") {
  const int64_t n = 6, nrhs = 3;
  Matrix a = random_matrix(n, n, 7);
  for (int64_t i = 0; i < n; ++i) a[i * n + i] += 4;
  const Matrix b = random_matrix(n, nrhs, 8);
  for (bool upper : {false, true})
    for (bool unit : {false, true})
      for (bool transposed : {false, true}) {
        Matrix tri(a.size(), 0.0);
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < n; ++j)
            if (i == j) tri[i * n + j] = unit ? 1 : a[i * n + j];
            else if ((j > i) == upper) tri[i * n + j] = a[i * n + j];
        Matrix x = b;
        linalg::triangular_solve(a.data(), n, x.data(), nrhs, upper, unit, transposed);
        const Matrix op = transposed ? transpose(tri, n, n) : tri;
        check_close(multiply(op, x, n, n, nrhs), b);
      }
}

TEST_CASE("cholesky: L L^T = A, info for indefinite matrices", "[linalg_kernels]") {
  for (int64_t n : {1, 5, 8}) {
    const Matrix a = spd(n, static_cast<unsigned>(n));
    Matrix l = a;
    CHECK(linalg::cholesky(l.data(), n) == 0);
    check_close(multiply(l, transpose(l, n, n), n, n, n), a);
  }
  Matrix indefinite{1, 2, 0, 2, 1, 0, 0, 0, 1};
  CHECK(linalg::cholesky(indefinite.data(), 3) == 2);
}

TEST_CASE("geqrf and householder_product: Q R = A, Q orthonormal", "[linalg_kernels]") {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {5, 5}, {7, 3}, {3, 6}}) {
    const Matrix a = random_matrix(m, n, static_cast<unsigned>(m + 31 * n));
    const int64_t k = std::min(m, n);
    Matrix v = a;
    std::vector<double> tau(static_cast<size_t>(k));
    linalg::geqrf(v.data(), m, n, tau.data());
    // Q (m x m) from the reflectors padded to m columns.
    Matrix padded(static_cast<size_t>(m * m), 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < k; ++j) padded[i * m + j] = v[i * n + j];
    Matrix q(static_cast<size_t>(m * m));
    linalg::householder_product(padded.data(), m, m, tau.data(), k, q.data());
    Matrix r(static_cast<size_t>(m * n), 0.0);
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = i; j < n; ++j) r[i * n + j] = v[i * n + j];
    check_close(multiply(q, r, m, m, n), a);
    check_close(multiply(transpose(q, m, m), q, m, m, m), identity(m));
    // Applying the reflectors to the identity from either side gives Q and Q^T.
    Matrix left = identity(m), right = identity(m);
    for (int64_t j = k - 1; j >= 0; --j) linalg::apply_reflector_left(padded.data(), m, j, tau[j], left.data(), m, m);
    for (int64_t j = 0; j < k; ++j) linalg::apply_reflector_right(padded.data(), m, j, tau[j], right.data(), m, m);
    check_close(left, q);
    check_close(right, q);
  }
}

TEST_CASE("symmetric_eigen: A V = V diag(w), w ascending", "[linalg_kernels]") {
  for (int64_t n : {1, 4, 9}) {
    Matrix a = random_matrix(n, n, static_cast<unsigned>(100 + n));
    a = multiply(a, transpose(a, n, n), n, n, n);
    a[0] -= 3;  // indefinite
    Matrix work = a, v(static_cast<size_t>(n * n));
    std::vector<double> w(static_cast<size_t>(n));
    CHECK(linalg::symmetric_eigen(work.data(), n, w.data(), v.data()) == 0);
    CHECK(std::is_sorted(w.begin(), w.end()));
    Matrix vw = v;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) vw[i * n + j] *= w[j];
    check_close(multiply(a, v, n, n, n), vw, 1e-9);
    check_close(multiply(transpose(v, n, n), v, n, n, n), identity(n));
  }
}

TEST_CASE("jacobi_svd: U diag(S) V^T = A, orthonormal factors", "[linalg_kernels]") {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {5, 5}, {7, 3}, {3, 7}, {4, 4}})
    for (bool full : {false, true}) {
      Matrix a = random_matrix(m, n, static_cast<unsigned>(7 * m + n));
      if (m == 4) std::fill(a.begin() + 3 * n, a.end(), 0.0);  // rank-deficient
      const int64_t k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
      std::vector<double> s(static_cast<size_t>(k));
      Matrix u(static_cast<size_t>(m * uc)), vt(static_cast<size_t>(vr * n));
      CHECK(linalg::jacobi_svd(a.data(), m, n, s.data(), u.data(), vt.data(), full) == 0);
      CHECK(std::is_sorted(s.rbegin(), s.rend()));
      Matrix us(static_cast<size_t>(m * k));
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < k; ++j) us[i * k + j] = u[i * uc + j] * s[j];
      check_close(multiply(us, vt, m, k, n), a);
      check_close(multiply(transpose(u, m, uc), u, uc, m, uc), identity(uc));
      check_close(multiply(vt, transpose(vt, vr, n), vr, n, vr), identity(vr));
    }
}

TEST_CASE("ldl_factor and ldl_solve solve symmetric indefinite systems", "[linalg_kernels]") {
  for (int64_t n : {1, 3, 6, 10}) {
    Matrix a = random_matrix(n, n, static_cast<unsigned>(200 + n));
    for (int64_t i = 0; i < n; ++i) {
      a[i * n + i] = i % 3 == 1 ? 0 : a[i * n + i];  // zero diagonals force 2x2 blocks
      for (int64_t j = 0; j < i; ++j) a[j * n + i] = a[i * n + j];
    }
    Matrix ld = a;
    std::vector<int32_t> pivots(static_cast<size_t>(n));
    linalg::ldl_factor(ld.data(), n, pivots.data());
    const Matrix b = random_matrix(n, 2, 9);
    Matrix x = b;
    linalg::ldl_solve(ld.data(), n, pivots.data(), x.data(), 2);
    check_close(multiply(a, x, n, n, 2), b, 1e-8);
  }
}

TEST_CASE("matrix_exp: exp(A) exp(-A) = I at every degree", "[linalg_kernels]") {
  for (double scale : {1e-9, 1e-5, 0.01, 0.04, 0.2, 1.0, 8.0}) {
    const int64_t n = 4;
    Matrix a = random_matrix(n, n, 3);
    for (double& x : a) x *= scale / n;
    Matrix neg = a;
    for (double& x : neg) x = -x;
    Matrix e(a.size()), f(a.size());
    linalg::matrix_exp(a.data(), n, e.data());
    linalg::matrix_exp(neg.data(), n, f.data());
    check_close(multiply(e, f, n, n, n), identity(n), 1e-9);
  }
}
