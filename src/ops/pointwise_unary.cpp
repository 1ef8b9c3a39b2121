// Unary math on tensors: abs, neg, exp, log, sqrt, trig, rounding, sign, isnan/isinf, ...
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_pointwise_unary_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
