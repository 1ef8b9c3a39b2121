// Reductions and scans: sum, mean, prod, amax/amin, max/min, argmax/argmin, var/std, norms, any/all, cumsum, topk, sort, softmax/log_softmax.
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_reductions_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
