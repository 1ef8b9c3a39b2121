// The plane rotation that Jacobi methods use: for the symmetric 2 x 2 matrix
// [[app, apq], [apq, aqq]] (apq != 0), the cosine c and sine s with which
// columns p' = c p - s q, q' = s p + c q zero the off-diagonal entry (the
// smaller of the two angles). Shared by symmetric_eigen and jacobi_svd.
//
// Errors: never throws.
#pragma once

#include <cmath>

namespace pt2web::linalg {

template <class T>
struct Rotation {
  T c, s;
};

template <class T>
Rotation<T> jacobi_rotation(T app, T aqq, T apq) {
  const T zeta = (aqq - app) / (T(2) * apq);
  const T t = std::copysign(T(1), zeta) / (std::abs(zeta) + std::sqrt(T(1) + zeta * zeta));
  const T c = T(1) / std::sqrt(T(1) + t * t);
  return {c, t * c};
}

}  // namespace pt2web::linalg
