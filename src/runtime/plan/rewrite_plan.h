// The plan rewrites, in the order they run on a bound plan (before
// liveness): PT2E int8 chains become quantized products
// (runtime/plan/quantized_fusion.h), convolution epilogues fuse
// (runtime/plan/fusion.h), grouped-query attention reads its key and value
// heads in place (runtime/plan/grouped_attention_plan.h), and values later views depend on get torch's
// layouts (runtime/plan/torch_layout_plan.h). Each is one named step.
//
// Ownership: rewrites `plan` in place. Errors: none (what a rewrite cannot
// handle stays as bound).
#pragma once

#include <set>
#include <string>

#include "runtime/plan/graph_plan.h"
#include "util/step_log.h"

namespace pt2web {

// `fixed_inputs`: names of the graph's inputs whose values never change
// (parameters, constants); `log` (may be null) gets one step per rewrite.
void rewrite_plan(GraphPlan& plan, const std::set<std::string>& fixed_inputs, StepLog* log);

}  // namespace pt2web
