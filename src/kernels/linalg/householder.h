// Householder QR (LAPACK geqrf) and the use of its reflectors (orgqr /
// householder_product and ormqr), on row-major buffers.
//
// geqrf factors an m x n matrix A in place: R on and above the diagonal, the
// reflector vectors v_j below it (v_j[j] = 1 implied), and tau[j] for each of
// the min(m, n) reflectors H_j = I - tau_j v_j v_j^T, with A = H_0 H_1 ... R.
// Each reflector follows dlarfg: beta = -sign(alpha) * ||(alpha, x)||,
// tau = (beta - alpha) / beta, v = x / (alpha - beta); tau = 0 when x is zero.
//
// Errors: never throws.
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
void geqrf(T* a, int64_t m, int64_t n, T* tau);

// Applies H_j (column j of the m x k reflector matrix `v`, below row j, unit
// at row j) to the rows j.. of an m x cols row-major matrix c from the left:
// c = H_j c.
template <class T>
void apply_reflector_left(const T* v, int64_t k, int64_t j, T tau, T* c, int64_t m, int64_t cols);

// The same reflector applied from the right to a rows x m matrix: c = c H_j.
template <class T>
void apply_reflector_right(const T* v, int64_t k, int64_t j, T tau, T* c, int64_t rows, int64_t m);

// householder_product: the first n columns of H_0 ... H_{k-1} (an m x n
// result in `q`) from an m x n reflector matrix `v` and k taus (k <= n).
template <class T>
void householder_product(const T* v, int64_t m, int64_t n, const T* tau, int64_t k, T* q);

}  // namespace pt2web::linalg
