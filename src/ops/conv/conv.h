// The conv operator folder: Convolutions (direct, transposed, grouped, depthwise), the fused conv -> batch norm -> clamp operator, fold / unfold.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_conv_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_convolution_ops(OpTable& t);  // convolution.cpp
void register_fold_ops(OpTable& t);  // fold.cpp
void register_fused_convolution_ops(OpTable& t);  // fused_convolution.cpp

}  // namespace pt2web
