#include "ops/families.h"
#include "ops/creation/creation.h"

namespace pt2web {

void register_creation_ops(OpTable& t) {
  register_diagonal_builder_ops(t);
  register_factory_ops(t);
  register_spaced_range_ops(t);
  register_random_ops(t);
}

}  // namespace pt2web
