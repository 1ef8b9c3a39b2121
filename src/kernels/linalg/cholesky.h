// Cholesky factorization (LAPACK potrf, lower) of one row-major symmetric
// n x n matrix in place: only the lower triangle is read; on return the
// lower triangle holds L with A = L L^T and the strict upper triangle is
// zero.
//
// Errors: never throws. Returns LAPACK's info: 0, or the order of the first
// leading minor that is not positive-definite (then the buffer holds a
// partial factor, as potrf leaves it).
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
int32_t cholesky(T* a, int64_t n);

}  // namespace pt2web::linalg
