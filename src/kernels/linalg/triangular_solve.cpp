#include "kernels/linalg/triangular_solve.h"

namespace pt2web::linalg {

template <class T>
void triangular_solve(const T* a, int64_t n, T* b, int64_t nrhs, bool upper, bool unit, bool transpose) {
  // op(A)[i][k]: A^T of an upper matrix is lower, so the sweep direction
  // follows whether op(A) is upper.
  auto at = [&](int64_t i, int64_t k) { return transpose ? a[k * n + i] : a[i * n + k]; };
  const bool op_upper = upper != transpose;
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = op_upper ? n - 1 - step : step;
    T* row = b + i * nrhs;
    const int64_t begin = op_upper ? i + 1 : 0, end = op_upper ? n : i;
    for (int64_t k = begin; k < end; ++k) {
      const T factor = at(i, k);
      if (factor == T(0)) continue;
      const T* known = b + k * nrhs;
      for (int64_t c = 0; c < nrhs; ++c) row[c] -= factor * known[c];
    }
    if (!unit) {
      const T diagonal = at(i, i);
      for (int64_t c = 0; c < nrhs; ++c) row[c] /= diagonal;
    }
  }
}

template void triangular_solve<float>(const float*, int64_t, float*, int64_t, bool, bool, bool);
template void triangular_solve<double>(const double*, int64_t, double*, int64_t, bool, bool, bool);

}  // namespace pt2web::linalg
