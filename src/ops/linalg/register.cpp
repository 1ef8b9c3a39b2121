#include "ops/families.h"
#include "ops/linalg/linalg.h"

namespace pt2web {

void register_linalg_ops(OpTable& t) {
  register_einsum_ops(t);
  register_matmul_ops(t);
  register_product_ops(t);
}

}  // namespace pt2web
