// Strides like torch's, plan time (the run-time half is runtime/torch_layout.h,
// whose comment tells the whole story). A graph records the strides torch's
// kernels gave every value, and torch traced `view` wherever that layout
// allowed it; pt2web's kernels may lay results out otherwise.
//
// plan_torch_layouts(): a view that needs compatible strides (view,
// _unsafe_view, view_as, unflatten, view_as_complex) of a value that nothing
// writes in place gets its input's recorded dimension order; a view of a
// value something writes through an alias, and as_strided (which reads the
// storage), need the value itself in torch's layout: the node producing it,
// found through the chain of aliasing operators (views, in-place and out=
// writes), gets the dimension order torch recorded for it. Orders come from
// dense recorded layouts only; symbolic strides are ordered by their example
// values, so one order serves every size.
//
// Owns: PreparedNode::torch_layouts. Errors: none.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "program/graph.h"
#include "runtime/plan/graph_plan.h"

namespace pt2web {

// The dimensions of a recorded tensor from outermost to innermost in memory,
// when its recorded strides are dense and non-overlapping (sizes and strides
// read as their concrete or example values); nullopt otherwise.
std::optional<std::vector<int>> recorded_dim_order(const TensorMeta& meta);

// Fills torch_layouts of the nodes (see above). `slot_names` names each slot
// in `graph`.
void plan_torch_layouts(std::vector<PreparedNode>& nodes, const std::vector<std::string>& slot_names,
                        const Graph& graph);

}  // namespace pt2web
