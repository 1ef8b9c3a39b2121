// The reduction operator folder: Reductions over dims (sum, mean, prod, any/all, min/max, statistics), scans, sorting and top-k, softmax.
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

}  // namespace pt2web
