#include "ops/views.h"

#include <optional>

#include "ops/op_utils.h"

namespace pt2web {

Tensor permute_view(const Tensor& t, const std::vector<int64_t>& dims) {
  if (static_cast<int64_t>(dims.size()) != t.dim())
    fail(ErrorCode::BadInput, "permute: number of dims don't match (", dims.size(), " vs ", t.dim(), ")");
  Shape sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], t.dim());
    if (seen[d]) fail(ErrorCode::BadInput, "permute: repeated dim ", dims[i]);
    seen[d] = true;
    sizes[i] = t.sizes()[d];
    strides[i] = t.strides()[d];
  }
  return t.as_strided(sizes, strides, t.storage_offset());
}

Tensor transpose_view(const Tensor& t, int64_t d0, int64_t d1) {
  if (t.dim() == 0) return t;
  d0 = wrap_dim(d0, t.dim());
  d1 = wrap_dim(d1, t.dim());
  Shape sizes = t.sizes(), strides = t.strides();
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return t.as_strided(sizes, strides, t.storage_offset());
}

Tensor unsqueeze_view(const Tensor& t, int64_t dim) {
  dim = wrap_dim(dim, t.dim() + 1);
  Shape sizes = t.sizes(), strides = t.strides();
  int64_t stride = dim < t.dim() ? sizes[dim] * strides[dim] : 1;
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return t.as_strided(sizes, strides, t.storage_offset());
}

Tensor squeeze_view(const Tensor& t, const std::vector<int64_t>& dims) {
  std::vector<bool> drop(t.dim(), false);
  if (dims.empty()) {
    for (int64_t d = 0; d < t.dim(); ++d) drop[d] = t.sizes()[d] == 1;
  } else {
    for (int64_t d : dims) {
      int64_t w = wrap_dim(d, t.dim());
      if (t.dim() > 0 && t.sizes()[w] == 1) drop[w] = true;
    }
  }
  Shape sizes, strides;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (!drop[d]) {
      sizes.push_back(t.sizes()[d]);
      strides.push_back(t.strides()[d]);
    }
  return t.as_strided(sizes, strides, t.storage_offset());
}

Tensor expand_view(const Tensor& t, const std::vector<int64_t>& sizes) {
  if (sizes.size() < static_cast<size_t>(t.dim()))
    fail(ErrorCode::BadInput, "expand: the number of sizes provided (", sizes.size(),
         ") must be greater or equal to the number of dimensions in the tensor (", t.dim(), ")");
  size_t shift = sizes.size() - t.dim();
  Shape out_sizes(sizes.size()), out_strides(sizes.size(), 0);
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i < shift) {
      if (sizes[i] < 0) fail(ErrorCode::BadInput, "expand: -1 is not allowed in a leading, non-existing dimension");
      out_sizes[i] = sizes[i];
      continue;
    }
    int64_t have = t.sizes()[i - shift];
    int64_t want = sizes[i] == -1 ? have : sizes[i];
    if (have != want && have != 1)
      fail(ErrorCode::BadInput, "The expanded size of the tensor (", want, ") must match the existing size (", have,
           ") at non-singleton dimension ", i, ".  Target sizes: ", shape_to_string(sizes),
           ".  Tensor sizes: ", shape_to_string(t.sizes()));
    out_sizes[i] = want;
    out_strides[i] = have == want ? t.strides()[i - shift] : 0;
  }
  return t.as_strided(out_sizes, out_strides, t.storage_offset());
}

Tensor slice_view(const Tensor& t, int64_t dim, std::optional<int64_t> start_opt, std::optional<int64_t> end_opt,
                  int64_t step) {
  if (t.dim() == 0) fail(ErrorCode::BadInput, "slice() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, t.dim());
  if (step <= 0) fail(ErrorCode::BadInput, "slice step must be positive");
  int64_t size = t.sizes()[dim];
  int64_t start = start_opt.value_or(0), end = end_opt.value_or(INT64_MAX);
  if (start < 0) start = start < -size ? 0 : start + size;
  if (end < 0) end = end < -size ? 0 : end + size;
  start = std::min(std::max<int64_t>(start, 0), size);
  end = std::min(std::max<int64_t>(end, start), size);
  Shape sizes = t.sizes(), strides = t.strides();
  // Written so that no step, however large, overflows: (end - start) < 2^63.
  sizes[dim] = end == start ? 0 : (end - start - 1) / step + 1;
  // One element or none: the stride is never stepped over, so it stays.
  if (sizes[dim] > 1 && __builtin_mul_overflow(t.strides()[dim], step, &strides[dim]))
    fail(ErrorCode::BadInput, "slice step ", step, " times stride ", t.strides()[dim], " does not fit int64");
  return t.as_strided(sizes, strides, t.storage_offset() + start * t.strides()[dim]);
}

Tensor select_view(const Tensor& t, int64_t dim, int64_t index) {
  if (t.dim() == 0) fail(ErrorCode::BadInput, "select() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, t.dim());
  int64_t size = t.sizes()[dim];
  if (index < -size || index >= size)
    fail(ErrorCode::BadInput, "select(): index ", index, " out of range for tensor of size ",
         shape_to_string(t.sizes()), " at dimension ", dim);
  if (index < 0) index += size;
  Shape sizes = t.sizes(), strides = t.strides();
  int64_t offset = t.storage_offset() + index * strides[dim];
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return t.as_strided(sizes, strides, offset);
}

Shape infer_size(const std::vector<int64_t>& shape, int64_t numel) {
  Shape out = shape;
  int64_t known = 1;
  int infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) fail(ErrorCode::BadInput, "only one dimension can be inferred");
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      fail(ErrorCode::BadInput, "invalid shape dimension ", shape[i]);
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      // A product past int64 matches no tensor's element count.
      fail(ErrorCode::BadInput, "shape '", shape_to_string(shape), "' is invalid for input of size ", numel);
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel % known != 0)
      fail(ErrorCode::BadInput, "shape '", shape_to_string(shape), "' is invalid for input of size ", numel);
    out[infer] = numel / known;
  } else if (known != numel) {
    fail(ErrorCode::BadInput, "shape '", shape_to_string(shape), "' is invalid for input of size ", numel);
  }
  return out;
}

namespace {

// Strides for viewing t with `shape` without copying (ATen's computeStride),
// or nullopt when the memory layout does not allow it.
std::optional<Shape> view_strides(const Tensor& t, const Shape& shape) {
  if (t.numel() == 0 || t.dim() == 0) return contiguous_strides(shape);
  const Shape& old_sizes = t.sizes();
  const Shape& old_strides = t.strides();
  Shape new_strides(shape.size());
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = t.dim() - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[tensor_d];
    if (tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                          old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        new_strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

}  // namespace

bool strides_allow_view(const Tensor& t, const std::vector<int64_t>& shape) {
  int64_t known = 1;
  int inferred = 0;
  for (int64_t s : shape) {
    if (s < -1) return true;
    if (s == -1) ++inferred;
    else known *= s;
  }
  bool fits = inferred == 0 ? known == t.numel() : inferred == 1 && known != 0 && t.numel() % known == 0;
  if (!fits) return true;
  return view_strides(t, infer_size(shape, t.numel())).has_value();
}

Tensor view_as(const Tensor& t, const std::vector<int64_t>& shape) {
  Shape sizes = infer_size(shape, t.numel());
  auto strides = view_strides(t, sizes);
  if (!strides)
    fail(ErrorCode::BadInput, "view size is not compatible with input tensor's size and stride (at least one "
         "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return t.as_strided(sizes, *strides, t.storage_offset());
}

Tensor reshape(const Tensor& t, const std::vector<int64_t>& shape) {
  Shape sizes = infer_size(shape, t.numel());
  auto strides = view_strides(t, sizes);
  if (strides) return t.as_strided(sizes, *strides, t.storage_offset());
  Tensor c = t.clone();
  return c.as_strided(sizes, contiguous_strides(sizes), 0);
}

}  // namespace pt2web
