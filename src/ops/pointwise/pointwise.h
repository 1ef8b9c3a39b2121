// The pointwise operator folder: Pointwise operators: arithmetic, powers, ternary ops (where, lerp, addcmul), unary math, comparisons and logic, activations, dtype conversion.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_pointwise_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_activations_ops(OpTable& t);  // activations.cpp
void register_arithmetic_ops(OpTable& t);  // arithmetic.cpp
void register_comparison_logical_ops(OpTable& t);  // comparison_logical.cpp
void register_conversion_ops(OpTable& t);  // conversion.cpp
void register_pow_ops(OpTable& t);  // pow.cpp
void register_ternary_ops(OpTable& t);  // ternary.cpp
void register_unary_ops(OpTable& t);  // unary.cpp

}  // namespace pt2web
