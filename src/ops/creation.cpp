// Tensor creation: full, zeros, ones, empty, arange, *_like, new_*, scalar_tensor, ...
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_creation_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
