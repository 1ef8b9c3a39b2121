// Symmetric indefinite factorization A = P L D L^T P^T with Bunch-Kaufman
// diagonal pivoting (LAPACK sytf2, lower) and solves with it (sytrs), on
// row-major n x n buffers. Only the lower triangle of A is read; on return
// it holds L below the diagonal and D's 1x1 and 2x2 blocks on it and the
// first subdiagonal, and the strict upper triangle is zeroed. pivots are
// LAPACK's: pivots[k] = p > 0 for a 1x1 block after swapping rows/columns k
// and p-1; pivots[k] = pivots[k+1] = -p for a 2x2 block after swapping k+1
// and p-1 (1-based p).
//
// Errors: never throws. ldl_factor returns LAPACK's info: 0, or the 1-based
// index of the first exactly zero 1x1 block of D (the factorization
// completes; solving with it divides by zero).
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
int32_t ldl_factor(T* a, int64_t n, int32_t* pivots);

// Overwrites the n x nrhs b with the solution of A X = B for A factored by ldl_factor.
template <class T>
void ldl_solve(const T* ld, int64_t n, const int32_t* pivots, T* b, int64_t nrhs);

}  // namespace pt2web::linalg
