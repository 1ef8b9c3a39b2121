// Plan-time fusion (called by GraphPlan before liveness is computed):
// replaces a convolution followed directly by an eval-mode batch norm
// and/or a clamp-like activation (relu, relu6, hardtanh, in place or not),
// each the only reader of the value before it, with one
// pt2web::conv_bn_clamp node (ops/conv/fused_convolution.cpp) that writes the
// chain's last value. No other node or graph output reads the intermediate
// values, so removing them changes nothing visible.
//
// Only arguments fixed in the graph are folded into the fusion (a training
// flag or clamp bound computed at run time leaves the chain as it is).
#pragma once

#include <vector>

#include "runtime/plan/graph_plan.h"

namespace pt2web {

// Rewrites `nodes` in place; `outputs` are the graph's outputs (never fused away).
void fuse_convolution_epilogues(std::vector<PreparedNode>& nodes, const std::vector<ArgSource>& outputs,
                                size_t num_slots);

}  // namespace pt2web
