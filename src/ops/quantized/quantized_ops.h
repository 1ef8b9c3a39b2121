// The quantized_decomposed operator family (PT2E quantization, torch's
// torch/ao/quantization/fx/_decomposed.py): register_quantized_ops (called
// by register_all_op_families) and one add_* function per file of this folder.
#pragma once

#include "ops/registry.h"

namespace pt2web {
void register_quantized_ops(OpTable& table);  // register_quantized.cpp
}  // namespace pt2web

namespace pt2web::quantized {

void add_per_tensor_ops(OpTable& table);      // per_tensor.cpp
void add_per_channel_ops(OpTable& table);     // per_channel.cpp
void add_per_token_ops(OpTable& table);       // per_token.cpp
void add_choose_qparams_ops(OpTable& table);  // choose_qparams.cpp
// The integer forms of PT2E's dequantize -> product (-> quantize) chains,
// which runtime/quantized_fusion.h puts in the plan (graphs never name them).
void add_quantized_linear_ops(OpTable& table);  // quantized_linear.cpp
void add_quantized_conv_ops(OpTable& table);    // quantized_conv.cpp

}  // namespace pt2web::quantized
