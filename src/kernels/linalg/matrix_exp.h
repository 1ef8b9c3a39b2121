// The matrix exponential of one row-major n x n matrix by torch's scheme
// (Bader, Blanes and Casas 2019, "Computing the Matrix Exponential with an
// Optimized Taylor Polynomial Approximation"): the 1-norm picks a Taylor
// polynomial of degree 1, 2, 4, 8, 12 or 18, each evaluated with few matrix
// products; above the degree-12 bound the matrix is scaled by 2^-s so that
// the degree-18 polynomial applies, and the result squared s times. The
// norm bounds are torch's: float's for float, double's for double.
//
// Errors: never throws (inf/NaN inputs give inf/NaN results).
#pragma once

#include <cstdint>

namespace pt2web::linalg {

template <class T>
void matrix_exp(const T* a, int64_t n, T* out);

}  // namespace pt2web::linalg
