// Plan-time rewrite of grouped-query attention as transformers writes it
// (repeat_kv): each key/value [B, Hk, S, E] is unsqueezed, expanded to
// [B, Hk, g, S, E] and reshaped to [B, Hk * g, S, E] (a copy, since the
// expanded view cannot be reshaped in place) before
// scaled_dot_product_attention. The attention node then reads the key and
// value themselves with enable_gqa=True, which maps query head h to key head
// h / g exactly as the repeated copy did (ops/nn/attention.cpp reads them in
// place), and the three nodes per operand go: a decode step stops copying its
// whole static cache g times per layer.
//
// Fires only on shapes the graph records as concrete and consistent, where
// the intermediate values have no other reader and no node between the
// chain and the attention writes anything in place (the attention then reads
// what the copy would have held). Ownership: rewrites `plan` in place; the
// absorbed nodes are listed in the attention node's `fused`. Errors: none.
#pragma once

#include "runtime/plan/graph_plan.h"

namespace pt2web {

// Returns how many attention nodes were rewritten.
int read_grouped_kv_in_place(GraphPlan& plan);

}  // namespace pt2web
