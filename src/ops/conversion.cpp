// dtype/device conversion: _to_copy, to.dtype, to.dtype_layout, type_as, ...
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_conversion_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
