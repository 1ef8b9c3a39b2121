// Pattern helpers shared by the plan-time rewrites of PT2E quantized chains
// (runtime/quantized_fusion.h, runtime/quantized_elementwise_fusion.h):
// constant quantization arguments, the single reader of a value, slots that
// in-place operators write, and read counts kept up to date. Never throw.
#pragma once

#include <optional>
#include <set>
#include <vector>

#include "runtime/plan/graph_plan.h"

namespace pt2web {

bool is_slot(const ArgSource& a);
bool int8_dtype_constant(const ArgSource& a);  // a constant torch.int8 / torch.uint8
bool float32_or_none(const ArgSource& a);      // a constant torch.float32 or None
ArgSource tensor_constant(DType dtype, double value);  // a 0-d tensor constant

// Slots some node passes to a mutable ("Tensor(a!)") argument.
std::set<int> written_slots(const std::vector<PreparedNode>& nodes);

// The only node after `after` reading `slot` (as its argument 0, nowhere else), or -1.
int sole_reader(const std::vector<PreparedNode>& nodes, const std::vector<int>& reads, int slot, size_t after);

// The constant parameters (scale, zero point, qmin, qmax, dtype) of a
// per-tensor quantize or dequantize node, as values, or nullopt.
std::optional<std::vector<double>> constant_qparams(const PreparedNode& n);

// A dequantize_per_tensor.default of int8/uint8 values with constant
// parameters into float32 at nodes[index]: its constant_qparams, or nullopt.
std::optional<std::vector<double>> dequantized_constant(const std::vector<PreparedNode>& nodes, int index);

// Takes back the reads of `args` from `reads` (their node is being removed or replaced).
void forget_reads(const std::vector<ArgSource>& args, std::vector<int>& reads);

}  // namespace pt2web
