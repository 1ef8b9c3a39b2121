// The quantized operator folder: the quantized_decomposed operators of PT2E
// quantization (torch's torch/ao/quantization/fx/_decomposed.py) and the
// integer nodes the plan puts in place of their chains. Each file registers
// its operators with one function declared here; register.cpp calls them all
// from register_quantized_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web::quantized {

void register_per_tensor_ops(OpTable& table);      // per_tensor.cpp
void register_per_channel_ops(OpTable& table);     // per_channel.cpp
void register_per_token_ops(OpTable& table);       // per_token.cpp
void register_choose_qparams_ops(OpTable& table);  // choose_qparams.cpp
// The integer forms of PT2E's dequantize -> product (-> quantize) chains,
// which runtime/quantized_fusion.h puts in the plan (graphs never name them).
void register_quantized_linear_ops(OpTable& table);  // quantized_linear.cpp
void register_quantized_conv_ops(OpTable& table);    // quantized_conv.cpp
void register_quantized_add_ops(OpTable& table);     // quantized_add.cpp
void register_quantized_lookup_ops(OpTable& table);  // quantized_lookup.cpp

}  // namespace pt2web::quantized
