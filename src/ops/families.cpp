#include "ops/families.h"

namespace pt2web {

void register_all_op_families(OpTable& table) {
  register_linear_algebra_ops(table);
  register_pointwise_ops(table);
  register_shape_ops(table);
  register_symbolic_ops(table);
  register_control_flow_ops(table);
}

}  // namespace pt2web
