#include "kernels/linalg/ldl.h"

#include <algorithm>
#include <cmath>

namespace pt2web::linalg {

namespace {

template <class T>
void swap_rows(T* b, int64_t nrhs, int64_t i, int64_t j) {
  if (i != j) std::swap_ranges(b + i * nrhs, b + (i + 1) * nrhs, b + j * nrhs);
}

}  // namespace

template <class T>
int32_t ldl_factor(T* a, int64_t n, int32_t* pivots) {
  auto at = [&](int64_t i, int64_t j) -> T& { return a[i * n + j]; };
  const T alpha = (T(1) + std::sqrt(T(17))) / T(8);  // Bunch-Kaufman's growth bound
  int32_t info = 0;
  int64_t k = 0;
  while (k < n) {
    int64_t step = 1, kp = k;
    const T abs_kk = std::abs(at(k, k));
    int64_t imax = k;
    T colmax = 0;
    for (int64_t i = k + 1; i < n; ++i)  // the first largest |value| below the diagonal, as idamax
      if (i == k + 1 || std::abs(at(i, k)) > colmax) imax = i, colmax = std::abs(at(i, k));
    if (std::max(abs_kk, colmax) == T(0) || std::isnan(abs_kk)) {
      if (info == 0) info = static_cast<int32_t>(k + 1);
    } else if (abs_kk < alpha * colmax) {
      // The largest off-diagonal |value| in row/column imax of the trailing matrix.
      T rowmax = 0;
      for (int64_t j = k; j < imax; ++j) rowmax = std::max(rowmax, std::abs(at(imax, j)));
      for (int64_t i = imax + 1; i < n; ++i) rowmax = std::max(rowmax, std::abs(at(i, imax)));
      if (abs_kk >= alpha * colmax * (colmax / rowmax)) {
        kp = k;
      } else if (std::abs(at(imax, imax)) >= alpha * rowmax) {
        kp = imax;
      } else {
        kp = imax;
        step = 2;
      }
    }
    const int64_t kk = k + step - 1;
    if (kp != kk) {  // swap rows and columns kk and kp of the trailing lower triangle
      for (int64_t i = kp + 1; i < n; ++i) std::swap(at(i, kk), at(i, kp));
      for (int64_t j = kk + 1; j < kp; ++j) std::swap(at(j, kk), at(kp, j));
      std::swap(at(kk, kk), at(kp, kp));
      if (step == 2) std::swap(at(k + 1, k), at(kp, k));
    }
    if (step == 1) {
      if (k + 1 < n && at(k, k) != T(0)) {
        const T d11 = T(1) / at(k, k);
        for (int64_t j = k + 1; j < n; ++j) {  // A22 -= d11 x x^T, lower part (dsyr)
          const T xj = at(j, k);
          if (xj == T(0)) continue;
          const T scaled = -d11 * xj;
          for (int64_t i = j; i < n; ++i) at(i, j) += at(i, k) * scaled;
        }
        for (int64_t i = k + 1; i < n; ++i) at(i, k) *= d11;
      }
      pivots[k] = static_cast<int32_t>(kp + 1);
    } else {
      if (k + 2 < n) {
        T d21 = at(k + 1, k);
        const T d11 = at(k + 1, k + 1) / d21, d22 = at(k, k) / d21;
        const T t = T(1) / (d11 * d22 - T(1));
        d21 = t / d21;
        for (int64_t j = k + 2; j < n; ++j) {
          const T wk = d21 * (d11 * at(j, k) - at(j, k + 1));
          const T wkp1 = d21 * (d22 * at(j, k + 1) - at(j, k));
          for (int64_t i = j; i < n; ++i) at(i, j) = at(i, j) - at(i, k) * wk - at(i, k + 1) * wkp1;
          at(j, k) = wk;
          at(j, k + 1) = wkp1;
        }
      }
      pivots[k] = pivots[k + 1] = -static_cast<int32_t>(kp + 1);
    }
    k += step;
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) at(i, j) = T(0);
  return info;
}

template <class T>
void ldl_solve(const T* ld, int64_t n, const int32_t* pivots, T* b, int64_t nrhs) {
  auto at = [&](int64_t i, int64_t j) { return ld[i * n + j]; };
  auto row = [&](int64_t i) { return b + i * nrhs; };
  // L D Y = P^T B, walking down.
  for (int64_t k = 0; k < n;) {
    if (pivots[k] > 0) {
      swap_rows(b, nrhs, k, pivots[k] - 1);
      for (int64_t i = k + 1; i < n; ++i)
        for (int64_t c = 0; c < nrhs; ++c) row(i)[c] -= at(i, k) * row(k)[c];
      const T inverse = T(1) / at(k, k);
      for (int64_t c = 0; c < nrhs; ++c) row(k)[c] *= inverse;
      k += 1;
    } else {
      swap_rows(b, nrhs, k + 1, -pivots[k] - 1);
      for (int64_t i = k + 2; i < n; ++i)
        for (int64_t c = 0; c < nrhs; ++c) row(i)[c] -= at(i, k) * row(k)[c];
      for (int64_t i = k + 2; i < n; ++i)
        for (int64_t c = 0; c < nrhs; ++c) row(i)[c] -= at(i, k + 1) * row(k + 1)[c];
      const T off = at(k + 1, k), first = at(k, k) / off, second = at(k + 1, k + 1) / off;
      const T denominator = first * second - T(1);
      for (int64_t c = 0; c < nrhs; ++c) {
        const T b0 = row(k)[c] / off, b1 = row(k + 1)[c] / off;
        row(k)[c] = (second * b0 - b1) / denominator;
        row(k + 1)[c] = (first * b1 - b0) / denominator;
      }
      k += 2;
    }
  }
  // L^T P^T X = Y, walking up.
  for (int64_t k = n - 1; k >= 0;) {
    const bool block = pivots[k] < 0;
    const int64_t first = block ? k - 1 : k;
    for (int64_t r = k; r >= first; --r)
      for (int64_t c = 0; c < nrhs; ++c) {
        T sum = 0;
        for (int64_t i = k + 1; i < n; ++i) sum += at(i, r) * row(i)[c];
        row(r)[c] -= sum;
      }
    swap_rows(b, nrhs, k, (block ? -pivots[k] : pivots[k]) - 1);
    k = first - 1;
  }
}

template int32_t ldl_factor<float>(float*, int64_t, int32_t*);
template int32_t ldl_factor<double>(double*, int64_t, int32_t*);
template void ldl_solve<float>(const float*, int64_t, const int32_t*, float*, int64_t);
template void ldl_solve<double>(const double*, int64_t, const int32_t*, double*, int64_t);

}  // namespace pt2web::linalg
