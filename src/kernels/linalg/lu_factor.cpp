#include "kernels/linalg/lu_factor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pt2web::linalg {

template <class T>
int32_t lu_factor(T* a, int64_t m, int64_t n, int32_t* pivots) {
  int32_t info = 0;
  const int64_t k = std::min(m, n);
  for (int64_t j = 0; j < k; ++j) {
    int64_t p = j;
    for (int64_t i = j + 1; i < m; ++i)
      if (std::abs(a[i * n + j]) > std::abs(a[p * n + j])) p = i;
    pivots[j] = static_cast<int32_t>(p + 1);
    const T pivot = a[p * n + j];
    if (pivot == T(0)) {
      if (info == 0) info = static_cast<int32_t>(j + 1);
      continue;
    }
    if (p != j) std::swap_ranges(a + j * n, a + (j + 1) * n, a + p * n);
    // As getf2: multiply by the reciprocal unless it would overflow.
    const bool reciprocal = std::abs(pivot) >= std::numeric_limits<T>::min();
    const T inverse = T(1) / pivot;
    for (int64_t i = j + 1; i < m; ++i) {
      T* row = a + i * n;
      const T factor = reciprocal ? row[j] * inverse : row[j] / pivot;
      row[j] = factor;
      for (int64_t c = j + 1; c < n; ++c) row[c] -= factor * a[j * n + c];
    }
  }
  return info;
}

template int32_t lu_factor<float>(float*, int64_t, int64_t, int32_t*);
template int32_t lu_factor<double>(double*, int64_t, int64_t, int32_t*);

}  // namespace pt2web::linalg
