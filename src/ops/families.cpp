#include "ops/families.h"
#include "ops/quantized/quantized_ops.h"

namespace pt2web {

void register_all_op_families(OpTable& table) {
  register_linear_algebra_ops(table);
  register_pointwise_ops(table);
  register_shape_ops(table);
  register_symbolic_ops(table);
  register_control_flow_ops(table);
  register_pointwise_unary_ops(table);
  register_comparison_logical_ops(table);
  register_activations_ops(table);
  register_conversion_ops(table);
  register_indexing_ops(table);
  register_creation_ops(table);
  register_joining_ops(table);
  register_reductions_ops(table);
  register_convolution_ops(table);
  register_pooling_ops(table);
  register_normalization_ops(table);
  register_attention_ops(table);
  register_recurrent_ops(table);
  register_einsum_ops(table);
  register_fused_convolution_ops(table);
  register_grid_sampler_ops(table);
  register_fold_ops(table);
  register_distance_ops(table);
  register_embedding_bag_ops(table);
  register_quantized_ops(table);
}

}  // namespace pt2web
