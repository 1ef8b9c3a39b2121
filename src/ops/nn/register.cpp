#include "ops/families.h"
#include "ops/nn/nn.h"

namespace pt2web {

void register_nn_ops(OpTable& t) {
  register_attention_ops(t);
  register_class_loss_ops(t);
  register_composite_layer_ops(t);
  register_distance_ops(t);
  register_distance_composite_ops(t);
  register_dropout_ops(t);
  register_loss_ops(t);
  register_recurrent_ops(t);
}

}  // namespace pt2web
