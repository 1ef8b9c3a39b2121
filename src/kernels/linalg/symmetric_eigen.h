// Eigen-decomposition of one real symmetric n x n matrix (the job of
// LAPACK syevd) by cyclic Jacobi rotations, on row-major buffers. Reads the
// lower triangle of `a` (the caller mirrors the upper one for UPLO='U') and
// overwrites `a`. Writes the eigenvalues in ascending order and, when
// `vectors` is not null, the matching unit eigenvectors as its columns
// (n x n). Each eigenvector is defined up to its sign: Jacobi's signs are not
// syevd's (see docs/DECISIONS.md on the corpus check of eigh).
//
// Errors: never throws. Returns 0, or 1 when the rotations did not converge
// (inputs with inf/NaN): the results are then NaN, as LAPACK reports info > 0.
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
int32_t symmetric_eigen(T* a, int64_t n, T* eigenvalues, T* vectors);

}  // namespace pt2web::linalg
