// One registration function per operator folder (src/ops/<folder>/), each
// defined in that folder's register.cpp. registry.cpp calls them all to build
// the operator table. To add a folder: give it a <folder>.h declaring its
// files' register functions, a register.cpp defining register_<folder>_ops,
// declare that here and call it from register_all_op_folders.
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_pointwise_ops(OpTable& table);
void register_reduction_ops(OpTable& table);
void register_shape_ops(OpTable& table);
void register_creation_ops(OpTable& table);
void register_indexing_ops(OpTable& table);
void register_conv_ops(OpTable& table);
void register_pool_ops(OpTable& table);
void register_norm_ops(OpTable& table);
void register_nn_ops(OpTable& table);
void register_linalg_ops(OpTable& table);
void register_control_flow_ops(OpTable& table);
void register_quantized_ops(OpTable& table);
void register_complex_ops(OpTable& table);
void register_spectral_ops(OpTable& table);
void register_torchvision_ops(OpTable& table);

// Calls every register_<folder>_ops above.
void register_all_op_folders(OpTable& table);

}  // namespace pt2web
