// Alignment of a tensor's elements: tensors that borrow archive bytes may
// start at any address (the legacy .pt2 zip nests torch.save archives at
// arbitrary offsets), and typed access needs element-size alignment.
// Never throws.
#pragma once

#include "tensor/tensor.h"

namespace pt2web {

// True when the first element's address is a multiple of the element size.
bool is_aligned(const Tensor& t);

// `t` itself if aligned, otherwise the same geometry over a byte copy of its
// storage in aligned heap memory.
Tensor aligned(const Tensor& t);

}  // namespace pt2web
