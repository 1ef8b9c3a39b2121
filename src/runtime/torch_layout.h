// Strides like torch's: a graph records the strides torch's kernels gave
// every value when it was traced, and torch traced `view` (rather than a
// copying reshape) wherever that layout allowed it. pt2web's kernels may lay
// a result out differently (attention writes (B, H, T, D) contiguously where
// torch writes (B, T, H, D) storage; elementwise results are contiguous where
// torch's follow their input's dimension order), and such a view would then
// fail or, for as_strided, read other elements.
//
// Plan time (runtime/plan/torch_layout_plan.h): a view that needs compatible strides
// (view, _unsafe_view, view_as, unflatten, view_as_complex) of a value that
// nothing writes in place gets its input's recorded dimension order; if the
// view fails on pt2web's layout, its input is copied into torch's and viewed
// again (nothing can observe that the copy no longer aliases). A view of a
// value something writes through an alias, and as_strided (which reads the
// storage), need the value itself in torch's layout: the node producing it,
// found through the chain of aliasing operators (views, in-place and out=
// writes), gets the dimension order torch recorded for it. Orders come from
// dense recorded layouts only; symbolic strides are ordered by their example
// values, so one order serves every size.
//
// Run time, run_with_torch_layouts(): runs the kernel as above, then copies
// each such output into torch's layout when the kernel returned a fresh
// tensor (one sharing no storage with its arguments, so nothing aliases it
// yet) laid out otherwise. Values nothing layout-dependent reads are never
// checked or copied, and a view that works on pt2web's layout is not copied.
//
// Reads: PreparedNode::torch_layouts. Errors: the kernel's (a view that fails
// on torch's layout too rethrows the error of the run on the copy).
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_call.h"
#include "runtime/plan/graph_plan.h"
#include "tensor/tensor.h"

namespace pt2web {

// Whether t is dense in `order` (dimensions of size 1 may have any stride).
bool has_dim_order(const Tensor& t, const std::vector<int>& order);

// A copy of t in new storage, dense in `order`.
Tensor copy_in_dim_order(const Tensor& t, const std::vector<int>& order);

// Runs node's kernel on call, giving the values node.torch_layouts names
// torch's layout (see above).
void run_with_torch_layouts(const PreparedNode& node, OpCall& call);

// How many values run_with_torch_layouts has copied in this process (for tests
// and profiling: the usual contiguous path makes none).
uint64_t torch_layout_copies();

}  // namespace pt2web
