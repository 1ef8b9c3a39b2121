// One registration function per operator family (one .cpp each in src/ops/).
// To add a family: write src/ops/<family>.cpp with register_<family>_ops,
// declare it here and call it from register_all_op_families (families.cpp).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_all_op_families(OpTable& table);

void register_linear_algebra_ops(OpTable& table);
void register_pointwise_ops(OpTable& table);
void register_shape_ops(OpTable& table);
void register_symbolic_ops(OpTable& table);
void register_control_flow_ops(OpTable& table);
void register_pointwise_unary_ops(OpTable& table);
void register_comparison_logical_ops(OpTable& table);
void register_activations_ops(OpTable& table);
void register_conversion_ops(OpTable& table);
void register_indexing_ops(OpTable& table);
void register_creation_ops(OpTable& table);
void register_joining_ops(OpTable& table);
void register_reductions_ops(OpTable& table);
void register_convolution_ops(OpTable& table);
void register_pooling_ops(OpTable& table);
void register_normalization_ops(OpTable& table);
void register_attention_ops(OpTable& table);
void register_recurrent_ops(OpTable& table);
void register_einsum_ops(OpTable& table);
void register_fused_convolution_ops(OpTable& table);
void register_grid_sampler_ops(OpTable& table);
void register_fold_ops(OpTable& table);
void register_distance_ops(OpTable& table);
void register_embedding_bag_ops(OpTable& table);

}  // namespace pt2web
