// The linalg operator folder: Matrix products (mm, bmm, addmm, linear, matmul, grouped mm, ...), einsum, and
// linear algebra (factorizations, solvers, determinants; kernels in src/kernels/linalg).
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_linalg_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_einsum_ops(OpTable& t);  // einsum.cpp
void register_matmul_ops(OpTable& t);  // matmul.cpp
void register_product_ops(OpTable& t);  // products.cpp
void register_lu_ops(OpTable& t);  // lu_ops.cpp
void register_solve_ops(OpTable& t);  // solve_ops.cpp
void register_determinant_ops(OpTable& t);  // determinant_ops.cpp
void register_cholesky_ops(OpTable& t);  // cholesky_ops.cpp
void register_qr_ops(OpTable& t);  // qr_ops.cpp
void register_ldl_ops(OpTable& t);  // ldl_ops.cpp
void register_matrix_function_ops(OpTable& t);  // matrix_function_ops.cpp
void register_eigen_svd_ops(OpTable& t);  // eigen_svd_ops.cpp
void register_matrix_norm_ops(OpTable& t);  // matrix_norm_ops.cpp
void register_grouped_mm_ops(OpTable& t);  // grouped_mm.cpp

}  // namespace pt2web
