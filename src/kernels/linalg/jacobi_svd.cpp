#include "kernels/linalg/jacobi_svd.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "kernels/linalg/jacobi_rotation.h"

namespace pt2web::linalg {

namespace {

// Columns `filled`.. of the row-major rows x cols matrix q become unit
// vectors orthogonal to all earlier columns: the unit vector e_i with the
// largest component left after two Gram-Schmidt passes.
template <class T>
void complete_orthonormal(T* q, int64_t rows, int64_t cols, int64_t filled) {
  std::vector<T> best(static_cast<size_t>(rows)), candidate(static_cast<size_t>(rows));
  for (int64_t j = filled; j < cols; ++j) {
    T best_norm = -1;
    for (int64_t e = 0; e < rows; ++e) {
      std::fill(candidate.begin(), candidate.end(), T(0));
      candidate[e] = T(1);
      for (int pass = 0; pass < 2; ++pass)
        for (int64_t c = 0; c < j; ++c) {
          T dot = 0;
          for (int64_t i = 0; i < rows; ++i) dot += q[i * cols + c] * candidate[i];
          for (int64_t i = 0; i < rows; ++i) candidate[i] -= dot * q[i * cols + c];
        }
      T norm = 0;
      for (T x : candidate) norm += x * x;
      if (norm > best_norm) best_norm = norm, best = candidate;
    }
    const T scale = T(1) / std::sqrt(best_norm);
    for (int64_t i = 0; i < rows; ++i) q[i * cols + j] = best[i] * scale;
  }
}

// One-sided Jacobi on a tall rows x cols (rows >= cols) matrix: w becomes
// U diag(S) with orthogonal columns, v accumulates the rotations (cols x cols).
template <class T>
bool orthogonalize_columns(std::vector<T>& w, int64_t rows, int64_t cols, std::vector<T>& v) {
  const T eps = std::numeric_limits<T>::epsilon();
  // Columns whose squared norm is below eps^2 * ||A||_F^2 are numerically
  // zero: rotating them against others only stirs rounding noise.
  T total = 0;
  for (T x : w) total += x * x;
  const T negligible = eps * eps * total;
  for (int sweep = 0; sweep < 100; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < cols; ++p) {
      for (int64_t q = p + 1; q < cols; ++q) {
        T alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < rows; ++i) {
          const T wp = w[i * cols + p], wq = w[i * cols + q];
          alpha += wp * wp, beta += wq * wq, gamma += wp * wq;
        }
        if (gamma == T(0) || std::abs(gamma) <= eps * std::sqrt(alpha * beta) || alpha <= negligible ||
            beta <= negligible)
          continue;
        rotated = true;
        const Rotation<T> r = jacobi_rotation(alpha, beta, gamma);
        auto rotate = [&](std::vector<T>& x, int64_t count) {
          for (int64_t i = 0; i < count; ++i) {
            const T xp = x[i * cols + p], xq = x[i * cols + q];
            x[i * cols + p] = r.c * xp - r.s * xq;
            x[i * cols + q] = r.s * xp + r.c * xq;
          }
        };
        rotate(w, rows);
        rotate(v, cols);
      }
    }
    if (!rotated) return true;
  }
  return false;
}

}  // namespace

template <class T>
int32_t jacobi_svd(const T* a, int64_t m, int64_t n, T* s, T* u, T* vt, bool full) {
  // A wide matrix is decomposed through its transpose: A^T = U' S V'^T.
  const bool wide = m < n;
  const int64_t rows = wide ? n : m, cols = wide ? m : n, k = cols;
  std::vector<T> w(static_cast<size_t>(rows * cols)), v(static_cast<size_t>(cols * cols), T(0));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) (wide ? w[j * cols + i] : w[i * cols + j]) = a[i * n + j];
  for (int64_t i = 0; i < cols; ++i) v[i * cols + i] = T(1);
  const bool converged = orthogonalize_columns(w, rows, cols, v);

  std::vector<T> norms(static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) {
    T sum = 0;
    for (int64_t i = 0; i < rows; ++i) sum += w[i * cols + j] * w[i * cols + j];
    norms[j] = std::sqrt(sum);
  }
  std::vector<int64_t> order(static_cast<size_t>(k));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return norms[x] > norms[y]; });
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (int64_t j = 0; j < k; ++j) s[j] = converged ? norms[order[j]] : nan;
  if (!u) return converged ? 0 : 1;

  // Left vectors of the tall problem (rows x (full ? rows : k)) and right
  // vectors (cols x cols), in descending order.
  const int64_t left_cols = full ? rows : k;
  std::vector<T> left(static_cast<size_t>(rows * left_cols), T(0)), right(static_cast<size_t>(cols * cols));
  // Columns at rounding level of the largest carry no direction: their U
  // vectors come from the orthonormal completion.
  const T cutoff = k > 0 ? norms[order[0]] * std::numeric_limits<T>::epsilon() * static_cast<T>(rows) : T(0);
  int64_t nonzero = 0;
  while (nonzero < k && norms[order[nonzero]] > cutoff) ++nonzero;
  for (int64_t j = 0; j < k; ++j) {
    for (int64_t i = 0; i < cols; ++i) right[i * cols + j] = v[i * cols + order[j]];
    if (j < nonzero)
      for (int64_t i = 0; i < rows; ++i) left[i * left_cols + j] = w[i * cols + order[j]] / norms[order[j]];
  }
  complete_orthonormal(left.data(), rows, left_cols, nonzero);

  // Tall: U = left, V^T = right^T. Wide: U = right, V^T = left^T.
  const int64_t u_cols = full ? m : k, vt_rows = full ? n : k;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < u_cols; ++j)
      u[i * u_cols + j] = !converged ? nan : wide ? right[i * cols + j] : left[i * left_cols + j];
  for (int64_t i = 0; i < vt_rows; ++i)
    for (int64_t j = 0; j < n; ++j)
      vt[i * n + j] = !converged ? nan : wide ? left[j * left_cols + i] : right[j * cols + i];
  return converged ? 0 : 1;
}

template int32_t jacobi_svd<float>(const float*, int64_t, int64_t, float*, float*, float*, bool);
template int32_t jacobi_svd<double>(const double*, int64_t, int64_t, double*, double*, double*, bool);

}  // namespace pt2web::linalg
