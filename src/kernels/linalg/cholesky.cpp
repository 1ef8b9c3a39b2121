#include "kernels/linalg/cholesky.h"

#include <cmath>

namespace pt2web::linalg {

template <class T>
int32_t cholesky(T* a, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) a[i * n + j] = T(0);
  for (int64_t j = 0; j < n; ++j) {
    T* row_j = a + j * n;
    T diagonal = row_j[j];
    for (int64_t k = 0; k < j; ++k) diagonal -= row_j[k] * row_j[k];
    if (!(diagonal > T(0))) {  // also NaN
      row_j[j] = diagonal;
      return static_cast<int32_t>(j + 1);
    }
    diagonal = std::sqrt(diagonal);
    row_j[j] = diagonal;
    const T inverse = T(1) / diagonal;  // potf2 scales the column by the reciprocal
    for (int64_t i = j + 1; i < n; ++i) {
      T* row_i = a + i * n;
      T value = row_i[j];
      for (int64_t k = 0; k < j; ++k) value -= row_i[k] * row_j[k];
      row_i[j] = value * inverse;
    }
  }
  return 0;
}

template int32_t cholesky<float>(float*, int64_t);
template int32_t cholesky<double>(double*, int64_t);

}  // namespace pt2web::linalg
