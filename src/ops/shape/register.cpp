#include "ops/families.h"
#include "ops/shape/shape.h"

namespace pt2web {

// Operator files added while the folder layout was being restructured; their
// declarations move to shape.h with the next change to that header.
void register_view_composition_ops(OpTable& t);  // view_compositions.cpp
void register_resize_ops(OpTable& t);  // resize.cpp
void register_splitting_ops(OpTable& t);  // splitting.cpp

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
