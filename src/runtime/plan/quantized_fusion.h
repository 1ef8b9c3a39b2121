// Plan-time rewrite of PT2E quantized programs (called by GraphPlan before
// runtime/fusion.h and before liveness): a linear layer (aten::linear, or
// Core ATen's addmm of a permuted weight) or 2-d convolution whose input is
// dequantize_per_tensor(q_x) and whose weight is dequantize_per_channel or
// dequantize_per_tensor of int8/uint8 values becomes one
// pt2web::quantized_linear / quantized_conv2d node (ops/quantized/) reading
// the integer tensors. A clamp-like activation (relu, relu6, hardtanh) read
// only by the chain is absorbed, and so is a quantize_per_tensor with
// constant parameters that follows: the node then writes int8 directly.
// Otherwise the node writes the float result the product node wrote. A
// dequantize -> clamp -> quantize with the quantize's own parameters after
// that (how XNNPACKQuantizer quantizes conv -> relu6) joins the epilogue too.
// Then the elementwise chains (runtime/quantized_elementwise_fusion.h): a
// residual add (-> clamp) -> quantize becomes pt2web::quantized_add, and
// dequantize -> unary float op -> quantize a 256-entry table lookup.
// Dequantize (and permute) nodes left without readers are dropped.
//
// Only arguments fixed in the graph are folded (quant ranges, dtypes, clamp
// bounds); scales and zero points may be run-time tensors (dynamic
// quantization's choose_qparams). Chains whose integer values or weights are
// passed to an in-place operator anywhere in the graph are left alone.
// A weight in `fixed_slots` (a parameter or constant) is marked
// weight_fixed, so the operator keeps its widened rows between runs.
#pragma once

#include <set>
#include <vector>

#include "program/graph.h"
#include "runtime/plan/graph_plan.h"

namespace pt2web {

void fuse_quantized_products(std::vector<PreparedNode>& nodes, const std::vector<ArgSource>& outputs,
                             size_t num_slots, const Graph& graph, const std::set<int>& fixed_slots);

}  // namespace pt2web
