// Singular value decomposition A = U diag(S) V^T of one row-major m x n
// matrix (the job of LAPACK gesdd) by one-sided Jacobi rotations. Writes the
// k = min(m, n) singular values in descending order into `s` and, when `u`
// is not null, U (m x m when `full`, else m x k) and V^T (n x n when `full`,
// else k x n). Columns of U left undetermined (zero singular values, or the
// completion of a full U/V) are filled with an orthonormal completion. Each
// singular vector pair is defined up to a common sign, which is not gesdd's.
//
// Errors: never throws. Returns 0, or 1 when the rotations did not converge
// (inf/NaN inputs): the results are then NaN.
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
int32_t jacobi_svd(const T* a, int64_t m, int64_t n, T* s, T* u, T* vt, bool full);

}  // namespace pt2web::linalg
