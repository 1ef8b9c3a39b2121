#include "ops/families.h"
#include "ops/linalg/linalg.h"

namespace pt2web {

// Operator files added while the folder layout was being restructured; their
// declarations move to linalg.h with the next change to that header.
void register_product_ops(OpTable& t);  // products.cpp

void register_linalg_ops(OpTable& t) {
  register_einsum_ops(t);
  register_matmul_ops(t);
  register_product_ops(t);
}

}  // namespace pt2web
