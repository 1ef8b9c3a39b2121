// Convolutions: convolution, conv1d/2d/3d, conv_transpose*.
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_convolution_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
