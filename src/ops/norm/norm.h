// The norm operator folder: Normalizations: batch, instance, layer, group and RMS norm.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_norm_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_layer_norm_ops(OpTable& t);  // layer_norm.cpp
void register_normalization_ops(OpTable& t);  // normalization.cpp
void register_weight_norm_ops(OpTable& t);  // weight_norm.cpp

}  // namespace pt2web
