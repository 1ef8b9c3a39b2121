// Small helpers shared by operator families: dimension wrapping, number
// arguments as tensors and in-place writes. (Elementwise maps are in
// ops/elementwise.h.)
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_call.h"
#include "tensor/dispatch.h"
#include "tensor/strided_loop.h"
#include "tensor/tensor.h"
#include "util/error.h"

namespace pt2web {

// Wraps a possibly negative dim into [0, rank); rank 0 accepts -1 and 0.
int64_t wrap_dim(int64_t dim, int64_t rank, const char* op = "");

// Sorted, unique, wrapped dims; an empty list means all dims.
std::vector<int64_t> wrap_dims(const std::vector<int64_t>& dims, int64_t rank, const char* op = "");

// A one-element list stands for `n` copies of its value (ATen's
// expand_param_if_needed and friends); other lists are left as they are.
// Copies the value before refilling: vector::assign(n, v[0]) reads freed
// storage under libc++ (the wasm builds' library).
void repeat_single(std::vector<int64_t>& v, size_t n);

// A 0-dim tensor holding a Scalar argument in dtype.
Tensor scalar_tensor(const Scalar& s, DType dtype);

// Writes `value` into `target` in place (broadcast and dtype conversion), for
// the in-place variants of ops (add_, relu_, ...). Returns target.
Tensor assign_in_place(const Tensor& target, const Tensor& value);

}  // namespace pt2web
