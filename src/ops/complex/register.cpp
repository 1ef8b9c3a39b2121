#include "ops/families.h"
#include "ops/complex/complex.h"

namespace pt2web {

void register_complex_ops(OpTable& t) {
  register_complex_views_ops(t);
  register_complex_math_ops(t);
}

}  // namespace pt2web
