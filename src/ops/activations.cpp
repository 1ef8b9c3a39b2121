// Activation functions: gelu, silu, sigmoid, tanh, hardtanh, relu6, elu, leaky_relu, softplus, mish, hardswish, hardsigmoid, ...
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_activations_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
