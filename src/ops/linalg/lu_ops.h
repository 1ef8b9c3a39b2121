// The LU factorization as the solver and determinant operators use it
// (lu_ops.cpp owns it): a batch of matrices factored by
// kernels/linalg/lu_factor, and solves with the factors.
//
// Errors: none of its own; callers check their inputs (matrix_batch.h) first.
#pragma once

#include "tensor/tensor.h"

namespace pt2web {

struct LuResult {
  Tensor lu;      // [..., m, n], the input's dtype, contiguous
  Tensor pivots;  // [..., min(m, n)] int32, 1-based
  Tensor info;    // [...] int32, getrf's info per matrix
};

// Factors every matrix of `a` (float32/float64, at least 2-D).
LuResult lu_factor_batched(const Tensor& a);

// Overwrites the contiguous b ([..., n, nrhs], lu's batch shape) with the
// solution of A X = B, or of A^T X = B when `transpose`.
void lu_solve_batched(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool transpose);

}  // namespace pt2web
