#include "ops/families.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

// Operator files added while the folder layout was being restructured; their
// declarations move to reduction.h with the next change to that header.
void register_composite_reduction_ops(OpTable& t);  // composite_reductions.cpp
void register_difference_ops(OpTable& t);  // differences.cpp
void register_histogram_ops(OpTable& t);  // histogram.cpp
void register_order_stats_ops(OpTable& t);  // order_stats.cpp
void register_searchsorted_ops(OpTable& t);  // searchsorted.cpp
void register_segment_reduce_ops(OpTable& t);  // segment_reduce.cpp
void register_unique_ops(OpTable& t);  // unique.cpp

void register_reduction_ops(OpTable& t) {
  register_composite_reduction_ops(t);
  register_difference_ops(t);
  register_histogram_ops(t);
  register_minmax_ops(t);
  register_order_stats_ops(t);
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
