#include "ops/families.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

void register_pointwise_ops(OpTable& t) {
  register_activations_ops(t);
  register_aliases_ops(t);
  register_closeness_ops(t);
  register_float_binary_ops(t);
  register_float_representation_ops(t);
  register_integer_bits_ops(t);
  register_arithmetic_ops(t);
  register_comparison_logical_ops(t);
  register_conversion_ops(t);
  register_pow_ops(t);
  register_special_ops(t);
  register_special_binary_ops(t);
  register_ternary_ops(t);
  register_unary_ops(t);
}

}  // namespace pt2web
