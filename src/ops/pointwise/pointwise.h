// The pointwise operator folder: Pointwise operators: arithmetic, powers, ternary ops (where, lerp, addcmul), unary math, comparisons and logic, activations, dtype conversion, special functions, floating-point and integer extras, aliases.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_pointwise_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_activations_ops(OpTable& t);  // activations.cpp
void register_aliases_ops(OpTable& t);  // aliases.cpp
void register_closeness_ops(OpTable& t);  // closeness.cpp
void register_float_binary_ops(OpTable& t);  // float_binary.cpp
void register_float_representation_ops(OpTable& t);  // float_representation.cpp
void register_integer_bits_ops(OpTable& t);  // integer_bits.cpp
void register_arithmetic_ops(OpTable& t);  // arithmetic.cpp
void register_comparison_logical_ops(OpTable& t);  // comparison_logical.cpp
void register_conversion_ops(OpTable& t);  // conversion.cpp
void register_pow_ops(OpTable& t);  // pow.cpp
void register_special_ops(OpTable& t);  // special.cpp
void register_special_binary_ops(OpTable& t);  // special_binary.cpp
void register_ternary_ops(OpTable& t);  // ternary.cpp
void register_unary_ops(OpTable& t);  // unary.cpp

}  // namespace pt2web
