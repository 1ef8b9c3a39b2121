#include "kernels/linalg/householder.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pt2web::linalg {

namespace {

// c = H_j c for an m x cols block of row stride ldc (rows walked in order,
// so a block of a larger matrix is read by rows too).
template <class T>
void reflect_rows(const T* v, int64_t k, int64_t j, T tau, T* c, int64_t m, int64_t cols, int64_t ldc) {
  if (tau == T(0)) return;
  // w = tau * v^T c, then c -= v w.
  std::vector<T> w(c + j * ldc, c + j * ldc + cols);
  for (int64_t i = j + 1; i < m; ++i) {
    const T vi = v[i * k + j];
    const T* row = c + i * ldc;
    for (int64_t col = 0; col < cols; ++col) w[col] += vi * row[col];
  }
  for (T& x : w) x *= tau;
  for (int64_t col = 0; col < cols; ++col) c[j * ldc + col] -= w[col];
  for (int64_t i = j + 1; i < m; ++i) {
    const T vi = v[i * k + j];
    T* row = c + i * ldc;
    for (int64_t col = 0; col < cols; ++col) row[col] -= w[col] * vi;
  }
}

}  // namespace

template <class T>
void apply_reflector_left(const T* v, int64_t k, int64_t j, T tau, T* c, int64_t m, int64_t cols) {
  reflect_rows(v, k, j, tau, c, m, cols, cols);
}

template <class T>
void apply_reflector_right(const T* v, int64_t k, int64_t j, T tau, T* c, int64_t rows, int64_t m) {
  if (tau == T(0)) return;
  auto vi = [&](int64_t i) { return i == j ? T(1) : v[i * k + j]; };
  for (int64_t r = 0; r < rows; ++r) {
    T* row = c + r * m;
    T dot = 0;
    for (int64_t i = j; i < m; ++i) dot += row[i] * vi(i);
    dot *= tau;
    for (int64_t i = j; i < m; ++i) row[i] -= dot * vi(i);
  }
}

template <class T>
void geqrf(T* a, int64_t m, int64_t n, T* tau) {
  const int64_t k = std::min(m, n);
  for (int64_t j = 0; j < k; ++j) {
    const T alpha = a[j * n + j];
    T norm_x = 0;
    for (int64_t i = j + 1; i < m; ++i) norm_x = std::hypot(norm_x, a[i * n + j]);
    if (norm_x == T(0)) {
      tau[j] = 0;
      continue;
    }
    const T beta = -std::copysign(std::hypot(alpha, norm_x), alpha);
    tau[j] = (beta - alpha) / beta;
    const T scale = T(1) / (alpha - beta);
    for (int64_t i = j + 1; i < m; ++i) a[i * n + j] *= scale;
    a[j * n + j] = beta;
    // H_j applied to the columns right of j (the reflector sits in column j of a itself).
    if (j + 1 < n) reflect_rows(a, n, j, tau[j], a + j + 1, m, n - (j + 1), n);
  }
}

template <class T>
void householder_product(const T* v, int64_t m, int64_t n, const T* tau, int64_t k, T* q) {
  std::fill(q, q + m * n, T(0));
  for (int64_t i = 0; i < std::min(m, n); ++i) q[i * n + i] = T(1);
  for (int64_t j = k - 1; j >= 0; --j) apply_reflector_left(v, n, j, tau[j], q, m, n);
}

#define PT2WEB_HOUSEHOLDER(T)                                                               \
  template void geqrf<T>(T*, int64_t, int64_t, T*);                                         \
  template void apply_reflector_left<T>(const T*, int64_t, int64_t, T, T*, int64_t, int64_t);  \
  template void apply_reflector_right<T>(const T*, int64_t, int64_t, T, T*, int64_t, int64_t); \
  template void householder_product<T>(const T*, int64_t, int64_t, const T*, int64_t, T*);
PT2WEB_HOUSEHOLDER(float)
PT2WEB_HOUSEHOLDER(double)
#undef PT2WEB_HOUSEHOLDER

}  // namespace pt2web::linalg
