// The control_flow operator folder: Higher-order operators whose bodies are subgraphs (cond, while_loop, map, grad and autocast regions) and symbolic-int operators with runtime assertions.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_control_flow_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_cond_ops(OpTable& t);  // cond.cpp
void register_loop_ops(OpTable& t);  // loops.cpp
void register_region_ops(OpTable& t);  // regions.cpp
void register_symbolic_ops(OpTable& t);  // symbolic.cpp

}  // namespace pt2web
