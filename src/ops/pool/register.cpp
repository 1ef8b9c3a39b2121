#include "ops/families.h"
#include "ops/pool/pool.h"

namespace pt2web {

void register_pool_ops(OpTable& t) {
  register_antialias_ops(t);
  register_fractional_pool_ops(t);
  register_grid_sampler_ops(t);
  register_grid_sampler_3d_ops(t);
  register_pooling_ops(t);
  register_resample_ops(t);
  register_unpool_ops(t);
}

}  // namespace pt2web
