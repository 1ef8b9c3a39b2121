// LU factorization with partial pivoting (LAPACK getrf's result) of one
// row-major m x n matrix in place: L (unit diagonal, below) and U (on and
// above the diagonal) share the buffer. Column j's pivot is the row at or
// below j with the largest |value| (the first such row on ties, as idamax
// picks); pivots[j] is that row, 1-based, as LAPACK writes it.
//
// Errors: never throws. Returns LAPACK's info: 0, or the 1-based index of
// the first exactly zero pivot (the factorization still completes).
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
int32_t lu_factor(T* a, int64_t m, int64_t n, int32_t* pivots);

}  // namespace pt2web::linalg
