#include "kernels/linalg/householder.h"

#include <algorithm>
#include <cmath>

namespace pt2web::linalg {

template <class T>
void apply_reflector_left(const T* v, int64_t k, int64_t j, T tau, T* c, int64_t m, int64_t cols) {
  if (tau == T(0)) return;
  auto vi = [&](int64_t i) { return i == j ? T(1) : v[i * k + j]; };
  for (int64_t col = 0; col < cols; ++col) {
    T dot = 0;
    for (int64_t i = j; i < m; ++i) dot += vi(i) * c[i * cols + col];
    dot *= tau;
    for (int64_t i = j; i < m; ++i) c[i * cols + col] -= dot * vi(i);
  }
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
    for (int64_t col = j + 1; col < n; ++col) {
      T dot = a[j * n + col];
      for (int64_t i = j + 1; i < m; ++i) dot += a[i * n + j] * a[i * n + col];
      dot *= tau[j];
      a[j * n + col] -= dot;
      for (int64_t i = j + 1; i < m; ++i) a[i * n + col] -= dot * a[i * n + j];
    }
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
