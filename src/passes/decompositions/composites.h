// Emitters shared by several decompositions: the Core ATen node sequences
// torch writes for reshape, matmul and triangular masks, wherever they occur
// (a reshape inside flatten, a matmul inside linear or attention, the causal
// mask of attention). Each returns the new graph's value holding the result.
//
// Ownership: values only; the nodes go to the builder.
// Errors: return "" to say "not handled here" where noted (the caller then
// keeps the original node); Error(Unsupported) from the builder for sizes it
// cannot express.
#pragma once

#include <string>
#include <vector>

#include "passes/graph_builder.h"

namespace pt2web {

// permute(x, dims), with the permuted sizes and strides.
std::string emit_permute(GraphBuilder& b, const std::string& x, const std::vector<int64_t>& dims);

// view(x, sizes) of a value whose layout allows it (a contiguous one, or
// one view_strides_of accepts); the strides follow ATen's view rule.
std::string emit_view(GraphBuilder& b, const std::string& x, const std::vector<SymInt>& sizes);

// reshape(x, sizes): a view when ATen's stride rule allows it on the
// recorded layout (and pt2web's layout is known to match), otherwise a
// contiguous clone, then a view.
std::string reshape_value(GraphBuilder& b, const std::string& x, const std::vector<SymInt>& sizes);

// matmul(x, y) as ATen's _matmul_impl: dot, mv, mm, the folded mm of a
// batch against a matrix, or expand + reshape + bmm + view. "" for 0-d
// operands.
std::string emit_matmul(GraphBuilder& b, const std::string& x, const std::string& y);

// x with its last two dims swapped (Tensor.mT, and t() of a matrix): a permute.
std::string emit_matrix_transpose(GraphBuilder& b, const std::string& x);

// tril (lower) / triu of x over its last two dims: the arange masks of
// torch/_refs, then where(mask, x, 0) (logical_and for bool). "" when the
// rank is below 2.
std::string emit_triangle(GraphBuilder& b, const std::string& x, int64_t diagonal, bool lower);

// arange.start_step(start, end) with layout, device and pin_memory spelled
// out as torch's refs give them (int64). Error(Unsupported) for a symbolic
// end with a nonzero start.
std::string emit_arange(GraphBuilder& b, int64_t start, const SymInt& end);

}  // namespace pt2web
