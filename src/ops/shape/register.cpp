#include "ops/families.h"
#include "ops/shape/shape.h"

namespace pt2web {

void register_shape_ops(OpTable& t) {
  register_joining_ops(t);
  register_joining_copy_ops(t);
  register_joining_pad_ops(t);
  register_view_ops(t);
  register_view_composition_ops(t);
  register_resize_ops(t);
  register_splitting_ops(t);
}

}  // namespace pt2web
