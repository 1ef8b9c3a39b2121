#include "tensor/alignment.h"

#include <cstring>

namespace pt2web {

bool is_aligned(const Tensor& t) {
  return !t.defined() || reinterpret_cast<uintptr_t>(t.raw_data()) % element_size(t.dtype()) == 0;
}

Tensor aligned(const Tensor& t) {
  if (is_aligned(t)) return t;
  auto copy = Storage::allocate_heap(t.storage()->nbytes(), false);
  std::memcpy(copy->data(), t.storage()->data(), t.storage()->nbytes());
  return Tensor(copy, t.dtype(), t.sizes(), t.strides(), t.storage_offset());
}

}  // namespace pt2web
