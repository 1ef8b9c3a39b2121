// Triangular solves (LAPACK trsm's job) on row-major buffers: solves
// op(A) X = B in place of B, for an n x n triangular A (only its upper or
// lower triangle is read; `unit` takes its diagonal as ones) and an n x nrhs
// B; op(A) is A, or A^T when `transpose`. A zero diagonal divides by zero
// into inf/NaN, as trsm does.
//
// Errors: never throws.
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
void triangular_solve(const T* a, int64_t n, T* b, int64_t nrhs, bool upper, bool unit, bool transpose);

}  // namespace pt2web::linalg
