// Helpers shared by the plan-time rewrites (runtime/fusion.h,
// runtime/quantized_fusion.h): how often each slot is read, which node
// produces a slot, constant arguments, clamp-like activations, and removing
// the nodes a rewrite absorbed. Never throw.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/plan/graph_plan.h"

namespace pt2web {

// How many times each slot is read (by nodes and graph outputs).
std::vector<int> slot_read_counts(const std::vector<PreparedNode>& nodes, const std::vector<ArgSource>& outputs,
                                  size_t num_slots);

// The node index writing each slot (-1: a placeholder or nothing).
std::vector<int> slot_producers(const std::vector<PreparedNode>& nodes, size_t num_slots);

std::string op_name(const PreparedNode& node);  // "aten::relu.default"

// The single tensor slot a node writes as its first output, or -1.
int first_output(const PreparedNode& node);

bool is_constant(const ArgSource& a);
ArgSource constant_arg(Value v);
ArgSource none_source();

// Clamp bounds (min, max) of a relu / relu6 / hardtanh node (in place or not)
// with constant bounds, or nullopt.
std::optional<std::pair<ArgSource, ArgSource>> clamp_bounds(const PreparedNode& node);

// Drops the nodes marked in `removed`, keeping the order of the others.
void remove_nodes(std::vector<PreparedNode>& nodes, const std::vector<bool>& removed);

}  // namespace pt2web
