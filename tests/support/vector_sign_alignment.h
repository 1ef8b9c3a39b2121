// The corpus rule for decompositions whose vectors torch defines only up to
// sign: eigenvectors of linalg_eigh / _linalg_eigh and singular vectors of
// linalg_svd / _linalg_svd / svd. LAPACK's signs come from its particular
// reduction (syevd's tridiagonalization, gesdd's bidiagonalization), which
// pt2web's Jacobi kernels do not replay; both are valid decompositions.
// Before a case is compared, each eigenvector column (U column, Vh row, V
// column) of such a program output that is also a graph output gets the
// sign of torch's matching vector, so that the usual tolerance check then
// compares the vectors themselves. Nothing else is changed: eigen- and
// singular values, and every output of other operators, are compared as
// they are. Used by the corpus checker only (conformance_check.h); see
// docs/DECISIONS.md.
//
// Errors: never throws; returns `got` unchanged when its outputs cannot be
// matched to the graph's.
#pragma once

#include "cases.h"

namespace pt2web {
class LoadedProgram;
}

namespace pt2web::testing {

PyValue align_vector_signs(const LoadedProgram& session, const PyValue& want, const PyValue& got);

}  // namespace pt2web::testing
