#include "ops/families.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

void register_reduction_ops(OpTable& t) {
  register_minmax_ops(t);
  register_reduce_ops(t);
  register_scan_ops(t);
  register_softmax_ops(t);
  register_sort_ops(t);
  register_stats_ops(t);
}

}  // namespace pt2web
