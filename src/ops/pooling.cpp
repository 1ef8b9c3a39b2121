// Pooling and resampling: max_pool*, avg_pool*, adaptive pools, upsample_*, pixel_shuffle.
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_pooling_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
