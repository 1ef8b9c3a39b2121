#include "ops/families.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

void register_reduction_ops(OpTable& t) {
  register_bincount_ops(t);
  register_composite_reduction_ops(t);
  register_difference_ops(t);
  register_histogram_ops(t);
  register_minmax_ops(t);
  register_order_stats_ops(t);
  register_quantile_ops(t);
  register_reduce_ops(t);
  register_scan_ops(t);
  register_searchsorted_ops(t);
  register_segment_reduce_ops(t);
  register_softmax_ops(t);
  register_sort_ops(t);
  register_stats_ops(t);
  register_unique_ops(t);
}

}  // namespace pt2web
