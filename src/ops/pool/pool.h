// The pool operator folder: Pooling (max, average, adaptive), resampling (upsample, pixel shuffle) and grid sampling.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_pool_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_antialias_ops(OpTable& t);  // antialias.cpp
void register_fractional_pool_ops(OpTable& t);  // fractional_pool.cpp
void register_grid_sampler_ops(OpTable& t);  // grid_sampler.cpp
void register_grid_sampler_3d_ops(OpTable& t);  // grid_sampler_3d.cpp
void register_pooling_ops(OpTable& t);  // pooling.cpp
void register_resample_ops(OpTable& t);  // resample.cpp
void register_unpool_ops(OpTable& t);  // unpool.cpp

}  // namespace pt2web
