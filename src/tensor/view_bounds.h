// Bounds of a strided view read from a file: does every element that
// (sizes, strides, storage offset) can reach lie inside a storage of a given
// number of elements? Used by the readers of untrusted archives
// (io/torch_load, io/pt2_loader) before they build a Tensor over the bytes.
//
// Ownership: none. Errors: none thrown; the function returns what is wrong
// (negative entries, ranks that differ, int64 overflow, a view reaching past
// the storage) as text for the caller's Error(BadFile), or "" when it fits.
#pragma once

#include <cstdint>
#include <string>

#include "tensor/tensor.h"

namespace pt2web {

std::string view_bounds_problem(const Shape& sizes, const Shape& strides, int64_t offset,
                                uint64_t available_elements);

}  // namespace pt2web
