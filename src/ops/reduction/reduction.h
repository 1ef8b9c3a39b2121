// The reduction operator folder: Reductions over dims (sum, mean, prod, any/all, min/max, statistics), scans, sorting and top-k, softmax, counting and quantiles.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_reduction_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_minmax_ops(OpTable& t);  // minmax.cpp
void register_reduce_ops(OpTable& t);  // reduce.cpp
void register_scan_ops(OpTable& t);  // scan.cpp
void register_softmax_ops(OpTable& t);  // softmax.cpp
void register_sort_ops(OpTable& t);  // sort.cpp
void register_stats_ops(OpTable& t);  // stats.cpp
void register_composite_reduction_ops(OpTable& t);  // composite_reductions.cpp
void register_difference_ops(OpTable& t);  // differences.cpp
void register_histogram_ops(OpTable& t);  // histogram.cpp
void register_order_stats_ops(OpTable& t);  // order_stats.cpp
void register_searchsorted_ops(OpTable& t);  // searchsorted.cpp
void register_segment_reduce_ops(OpTable& t);  // segment_reduce.cpp
void register_unique_ops(OpTable& t);  // unique.cpp
void register_bincount_ops(OpTable& t);  // bincount.cpp
void register_quantile_ops(OpTable& t);  // quantile.cpp

}  // namespace pt2web
