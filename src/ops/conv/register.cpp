#include "ops/families.h"
#include "ops/conv/conv.h"

namespace pt2web {

void register_conv_ops(OpTable& t) {
  register_convolution_ops(t);
  register_fold_ops(t);
  register_fused_convolution_ops(t);
  register_conv_packed_pointwise_ops(t);
}

}  // namespace pt2web
