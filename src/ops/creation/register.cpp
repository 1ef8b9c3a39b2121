#include "ops/families.h"
#include "ops/creation/creation.h"

namespace pt2web {

void register_creation_ops(OpTable& t) {
  register_factory_ops(t);
}

}  // namespace pt2web
