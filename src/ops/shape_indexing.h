// Helpers shared by the shape, indexing and creation folders' operator files: moving whole elements without caring about
// their type, reading integer index tensors, and converting Scalars to
// elements with ATen's overflow checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_call.h"
#include "tensor/dispatch.h"
#include "tensor/tensor.h"

namespace pt2web {

// A 16-byte element (complex128) moved as a unit.
struct Bytes16 {
  uint64_t lo, hi;
};

// Ops that only move elements (cat, flip, gather, index, pad, ...) do not
// need the element type, only its size: f gets TypeTag<U> with U an unsigned
// type of that size, so one instantiation serves every dtype of that width.
template <typename F>
decltype(auto) visit_element_size(DType dtype, F&& f) {
  switch (element_size(dtype)) {
    case 1: return f(TypeTag<uint8_t>{});
    case 2: return f(TypeTag<uint16_t>{});
    case 4: return f(TypeTag<uint32_t>{});
    case 8: return f(TypeTag<uint64_t>{});
    case 16: return f(TypeTag<Bytes16>{});
    default: fail(ErrorCode::Unsupported, "dtype ", dtype_name(dtype), " cannot be moved elementwise");
  }
}

// The values of an index tensor in row-major order. int64 always; int32 only
// when allow_int32 (ATen's index/index_select/embedding take both, while
// gather/scatter/take insist on int64). Other dtypes throw BadInput.
std::vector<int64_t> read_indices(const Tensor& index, bool allow_int32, const std::string& where);

// An index into a dimension of `size`: negative values count from the end;
// out-of-range values throw BadInput ("index 5 is out of bounds for dimension
// 0 with size 3").
int64_t wrap_index(int64_t index, int64_t size, int64_t dim, const std::string& where);

// out[i0, ..., in-1] = in[maps[0][i0], ..., maps[n-1][in-1]] for n = in.dim():
// each dimension of the result picks input positions through its own map.
// A map entry of -1 writes `fill` (a 0-dim tensor of in's dtype) instead.
// Covers flip, roll, repeat, padding and index_select with one loop.
Tensor gather_by_dim_maps(const Tensor& in, const std::vector<std::vector<int64_t>>& maps,
                          const Tensor& fill = Tensor());

// The identity map 0..size-1 for the dimensions a gather leaves alone.
std::vector<int64_t> identity_map(int64_t size);

// A 0-dim tensor of dtype holding s, converted as ATen's Scalar::to<T>():
// integer targets reject values outside their range (unsigned ones accept
// negative integers, which wrap), floating targets reject finite values beyond
// their range ("value cannot be converted to type int8 without overflow").
Tensor checked_scalar_tensor(const Scalar& s, DType dtype, const std::string& where);

// Writes s into every element of t (any strides), with the checks above.
void fill_scalar(const Tensor& t, const Scalar& s, const std::string& where);

// The value of a 0-dim (or one-element) tensor as a Scalar of matching kind.
Scalar tensor_to_scalar(const Tensor& t);

// A tensor of sizes viewed as at least 1-dimensional (0-dim -> [1]), as ATen's
// gather/scatter shape rules treat scalars.
Tensor as_nonempty_dim(const Tensor& t);

// Whether a tensor of shape `from` broadcasts to `to` (ATen's is_expandable_to).
bool is_expandable_to(const Shape& from, const Shape& to);

// A new zero-filled tensor of x's shape and `dtype` that keeps x's strides when
// they are a dense, non-overlapping layout (ATen's preserve_format), else
// contiguous.
Tensor empty_like_preserving(const Tensor& x, DType dtype);

// as_strided with ATen's checks: sizes and strides of equal length, no
// negative sizes or strides, and the view inside the input's storage.
Tensor checked_as_strided(const Tensor& x, const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                          int64_t storage_offset, const std::string& where);

// diagonal(offset, dim1, dim2) as a view: dim1 and dim2 go away and a last dim
// walks their diagonal (above the main one for offset > 0, below for < 0).
Tensor diagonal_view(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2, const std::string& where);

}  // namespace pt2web
