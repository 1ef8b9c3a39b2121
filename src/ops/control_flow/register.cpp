#include "ops/families.h"
#include "ops/control_flow/control_flow.h"

namespace pt2web {

void register_control_flow_ops(OpTable& t) {
  register_cond_ops(t);
  register_loop_ops(t);
  register_region_ops(t);
  register_symbolic_ops(t);
}

}  // namespace pt2web
