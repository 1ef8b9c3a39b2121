// Liveness, the last plan step: each slot is released right after the last
// node that reads it (unless a graph output needs it), so intermediate memory
// returns to the allocator as early as possible; and the plan records the
// most arguments any node takes (the executor's per-run scratch).
//
// Ownership: fills PreparedNode::release_after and GraphPlan::max_args.
// Errors: none.
#pragma once

#include "runtime/plan/graph_plan.h"

namespace pt2web {

void plan_liveness(GraphPlan& plan);

}  // namespace pt2web
