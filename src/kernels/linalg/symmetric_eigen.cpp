#include "kernels/linalg/symmetric_eigen.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "kernels/linalg/jacobi_rotation.h"

namespace pt2web::linalg {

template <class T>
int32_t symmetric_eigen(T* a, int64_t n, T* eigenvalues, T* vectors) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) a[i * n + j] = a[j * n + i];
  std::vector<T> v(static_cast<size_t>(n * n), T(0));
  for (int64_t i = 0; i < n; ++i) v[i * n + i] = T(1);
  const T eps = std::numeric_limits<T>::epsilon();
  // Off-diagonal entries below eps^2 * ||A||_F are rounding noise even next
  // to zero diagonals; rotating them could go on without end.
  T total = 0;
  for (int64_t i = 0; i < n * n; ++i) total += a[i] * a[i];
  const T negligible = eps * eps * std::sqrt(total);
  bool converged = false;
  for (int sweep = 0; sweep < 100 && !converged; ++sweep) {
    converged = true;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        const T apq = a[p * n + q], app = a[p * n + p], aqq = a[q * n + q];
        if (std::abs(apq) <= eps * std::sqrt(std::abs(app * aqq)) || std::abs(apq) <= negligible) {
          a[p * n + q] = a[q * n + p] = T(0);
          continue;
        }
        converged = false;
        const Rotation<T> r = jacobi_rotation(app, aqq, apq);
        for (int64_t k = 0; k < n; ++k) {  // columns p and q of A, then rows p and q
          const T akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = r.c * akp - r.s * akq;
          a[k * n + q] = r.s * akp + r.c * akq;
        }
        for (int64_t k = 0; k < n; ++k) {
          const T apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = r.c * apk - r.s * aqk;
          a[q * n + k] = r.s * apk + r.c * aqk;
        }
        for (int64_t k = 0; k < n; ++k) {
          const T vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = r.c * vkp - r.s * vkq;
          v[k * n + q] = r.s * vkp + r.c * vkq;
        }
      }
    }
  }
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return a[x * n + x] < a[y * n + y]; });
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (int64_t j = 0; j < n; ++j) {
    eigenvalues[j] = converged ? a[order[j] * n + order[j]] : nan;
    if (vectors)
      for (int64_t i = 0; i < n; ++i) vectors[i * n + j] = converged ? v[i * n + order[j]] : nan;
  }
  return converged ? 0 : 1;
}

template int32_t symmetric_eigen<float>(float*, int64_t, float*, float*);
template int32_t symmetric_eigen<double>(double*, int64_t, double*, double*);

}  // namespace pt2web::linalg
