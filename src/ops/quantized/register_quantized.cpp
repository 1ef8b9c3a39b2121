#include "ops/quantized/quantized_ops.h"

namespace pt2web {

void register_quantized_ops(OpTable& table) {
  quantized::add_per_tensor_ops(table);
  quantized::add_per_channel_ops(table);
  quantized::add_per_token_ops(table);
  quantized::add_choose_qparams_ops(table);
  quantized::add_quantized_linear_ops(table);
  quantized::add_quantized_conv_ops(table);
}

}  // namespace pt2web
