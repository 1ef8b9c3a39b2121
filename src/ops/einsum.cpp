// einsum.
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_einsum_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
