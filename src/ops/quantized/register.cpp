#include "ops/families.h"
#include "ops/quantized/quantized.h"

namespace pt2web {

void register_quantized_ops(OpTable& table) {
  quantized::register_per_tensor_ops(table);
  quantized::register_per_channel_ops(table);
  quantized::register_per_token_ops(table);
  quantized::register_choose_qparams_ops(table);
  quantized::register_quantized_linear_ops(table);
  quantized::register_quantized_conv_ops(table);
  quantized::register_quantized_add_ops(table);
  quantized::register_quantized_lookup_ops(table);
}

}  // namespace pt2web
