// View helpers shared by shape operators: each returns a tensor that shares
// storage with its input (as ATen's view ops do), or throws Error(BadInput)
// with ATen's reason when the view is not possible.
#pragma once

#include <optional>

#include "tensor/tensor.h"

namespace pt2web {

Tensor permute_view(const Tensor& t, const std::vector<int64_t>& dims);
Tensor transpose_view(const Tensor& t, int64_t d0, int64_t d1);
Tensor unsqueeze_view(const Tensor& t, int64_t dim);
Tensor squeeze_view(const Tensor& t, const std::vector<int64_t>& dims);  // only size-1 dims go
Tensor expand_view(const Tensor& t, const std::vector<int64_t>& sizes);
Tensor slice_view(const Tensor& t, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step);
Tensor select_view(const Tensor& t, int64_t dim, int64_t index);
// Shape with one -1 inferred; throws when numel differs.
Shape infer_size(const std::vector<int64_t>& shape, int64_t numel);
// Whether t's strides allow view(t, shape) (a shape with the wrong number of
// elements is left for view_as to refuse: true).
bool strides_allow_view(const Tensor& t, const std::vector<int64_t>& shape);
// view(): shares storage when the strides allow it, otherwise throws.
Tensor view_as(const Tensor& t, const std::vector<int64_t>& shape);
// reshape(): a view when possible, else a contiguous copy.
Tensor reshape(const Tensor& t, const std::vector<int64_t>& shape);

}  // namespace pt2web
