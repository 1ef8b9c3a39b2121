// The linalg operator folder: Matrix products (mm, bmm, addmm, linear, matmul, ...) and einsum.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_linalg_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_einsum_ops(OpTable& t);  // einsum.cpp
void register_matmul_ops(OpTable& t);  // matmul.cpp
void register_product_ops(OpTable& t);  // products.cpp

}  // namespace pt2web
