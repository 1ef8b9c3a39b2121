#include "ops/families.h"
#include "ops/norm/norm.h"

namespace pt2web {

void register_norm_ops(OpTable& t) {
  register_layer_norm_ops(t);
  register_normalization_ops(t);
  register_weight_norm_ops(t);
}

}  // namespace pt2web
