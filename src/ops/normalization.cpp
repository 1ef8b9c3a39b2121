// Normalization: batch_norm and its native/legit forms, layer_norm, group_norm, instance_norm.
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_normalization_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
