#include "ops/families.h"
#include "ops/quantized/quantized.h"

namespace pt2web {

void register_all_op_folders(OpTable& table) {
  register_pointwise_ops(table);
  register_reduction_ops(table);
  register_shape_ops(table);
  register_creation_ops(table);
  register_indexing_ops(table);
  register_conv_ops(table);
  register_pool_ops(table);
  register_norm_ops(table);
  register_nn_ops(table);
  register_linalg_ops(table);
  register_control_flow_ops(table);
  register_quantized_ops(table);
  register_complex_ops(table);
  register_spectral_ops(table);
  register_torchvision_ops(table);
}

}  // namespace pt2web
