// Comparisons, logical and bitwise ops, where, clamp, maximum/minimum.
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_comparison_logical_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
