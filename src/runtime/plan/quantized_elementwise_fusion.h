// Plan-time rewrites of elementwise PT2E int8 chains (called by
// fuse_quantized_products, runtime/quantized_fusion.h, after the products):
//  - add(dequantize(a), dequantize(b)), or add_ writing a float operand
//    nothing else reads, (-> relu / relu6 / hardtanh) -> quantize, all per
//    tensor with constant parameters and one integer dtype, becomes
//    pt2web::quantized_add on the integer values, the clamp in its
//    epilogue; mul / mul_ (squeeze-excite's gate) pt2web::quantized_mul;
//  - dequantize -> max_pool2d -> quantize with the same constant parameters
//    becomes max_pool2d on the integer values (exact: see the .cpp);
//  - dequantize -> elementwise float operators -> quantize (hardswish_,
//    hardsigmoid, sigmoid, gelu, ... or the add / clamp / mul / div Core
//    ATen decomposes them into: any connected set of elementwise_ops()
//    whose only tensor operands are the dequantized value and each other's
//    results, one of which leaves the set, read once by a quantize), both
//    per tensor with constant parameters, becomes pt2web::quantized_lookup
//    with a 256-entry table computed here by running those operators on
//    every int8 / uint8 value: the same results by construction.
// `reads`, `removed` are updated; chains whose integer values are written in
// place anywhere (`written`) are left alone. Never throws: a table whose
// operators fail at plan time leaves the chain as it is.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "runtime/plan/graph_plan.h"

namespace pt2web {

void fuse_quantized_elementwise(std::vector<PreparedNode>& nodes, std::vector<int>& reads,
                                const std::vector<int>& producer, const std::set<int>& written,
                                std::vector<bool>& removed);

// The float operators a lookup may replace ("aten::hardswish.default", the
// in-place forms, the arithmetic of Core ATen's decompositions): elementwise
// (their tensor operands all of one shape here), float in, float out.
const std::set<std::string>& elementwise_ops();

}  // namespace pt2web
