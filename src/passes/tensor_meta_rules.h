// Shape, stride and dtype rules for the values a rewrite creates: contiguous
// strides over symbolic sizes, permute, view, unsqueeze/squeeze, reductions.
// The decompositions use these to give every new value the TensorMeta torch
// would record (torch.export.load needs one for each value).
//
// Ownership: values only. Errors: Error(Internal) on a rule used with
// impossible arguments (a bug in the caller).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "program/graph.h"

namespace pt2web {

SymInt sym_const(int64_t v);
SymInt sym_mul(const SymInt& a, const SymInt& b);
bool sym_is(const SymInt& s, int64_t v);  // concrete and equal to v

std::vector<SymInt> contiguous_strides(const std::vector<SymInt>& sizes);
TensorMeta contiguous_meta(DType dtype, std::vector<SymInt> sizes);
TensorMeta with_dtype(TensorMeta meta, DType dtype);
TensorMeta permuted_meta(const TensorMeta& m, const std::vector<int64_t>& dims);
TensorMeta unsqueezed_meta(const TensorMeta& m, int64_t dim);
TensorMeta squeezed_meta(const TensorMeta& m, const std::vector<int64_t>& dims);
// A reduction over `dims` (empty = all); keepdim keeps them as size 1.
TensorMeta reduced_meta(const TensorMeta& m, std::vector<int64_t> dims, bool keepdim);
// True when the strides are the row-major ones for the sizes (size-1 dims ignored).
bool is_contiguous(const TensorMeta& m);
// The layout torch gives the result of a pointwise op on one tensor: the
// input's sizes, dense, with the dims in the input's stride order.
TensorMeta pointwise_meta(const TensorMeta& input, DType dtype);
// expand(m, sizes): new leading dims and broadcast size-1 dims get stride 0.
TensorMeta expanded_meta(const TensorMeta& m, const std::vector<SymInt>& sizes);
// matrix transpose (the last two dims swapped), as Tensor.mT.
TensorMeta transposed_meta(const TensorMeta& m);
// The strides of view(m, sizes) when it needs no copy: ATen's stride
// computation for a view, run on the recorded sizes and strides (symbolic
// ones at their example values). nullopt when a copy is needed, or when a
// value it needs has no example value.
std::optional<std::vector<SymInt>> view_strides_of(const TensorMeta& m, const std::vector<SymInt>& sizes);
// The metadata of view(m, sizes) (view_strides_of must have succeeded).
TensorMeta viewed_meta(const TensorMeta& m, const std::vector<SymInt>& sizes);
int64_t wrap_dim(int64_t dim, size_t rank);

}  // namespace pt2web
