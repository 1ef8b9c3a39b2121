// One registration function per operator family (one .cpp each in src/ops/).
// To add a family: write src/ops/<family>.cpp with register_<family>_ops,
// declare it here and call it from register_all_op_families (families.cpp).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_all_op_families(OpTable& table);

void register_linear_algebra_ops(OpTable& table);
void register_pointwise_ops(OpTable& table);
void register_shape_ops(OpTable& table);
void register_symbolic_ops(OpTable& table);
void register_control_flow_ops(OpTable& table);

}  // namespace pt2web
