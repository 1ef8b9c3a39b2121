#include "ops/families.h"
#include "ops/linalg/linalg.h"

namespace pt2web {

void register_linalg_ops(OpTable& t) {
  register_einsum_ops(t);
  register_matmul_ops(t);
  register_product_ops(t);
  register_lu_ops(t);
  register_solve_ops(t);
  register_determinant_ops(t);
  register_cholesky_ops(t);
  register_qr_ops(t);
  register_ldl_ops(t);
  register_matrix_function_ops(t);
  register_eigen_svd_ops(t);
  register_matrix_norm_ops(t);
  register_grouped_mm_ops(t);
}

}  // namespace pt2web
