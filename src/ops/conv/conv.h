// The conv operator folder: Convolutions (direct, transposed, grouped, depthwise), the fused conv -> batch norm -> clamp operator, the 1x1 convolution with a weight packed at load, fold / unfold.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_conv_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_convolution_ops(OpTable& t);  // convolution.cpp
void register_fold_ops(OpTable& t);  // fold.cpp
void register_fused_convolution_ops(OpTable& t);  // fused_convolution.cpp
void register_conv_packed_pointwise_ops(OpTable& t);  // packed_pointwise_conv.cpp

}  // namespace pt2web
