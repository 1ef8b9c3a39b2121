// resize_, resize_as_ and the functional resize: self takes new sizes with
// contiguous strides over its storage from its storage offset, as ATen's
// resize_ does. When the storage is too small, the result gets new storage
// holding the old bytes, and zeros after them (ATen leaves those elements
// uninitialized; zero is one of the values they may hold).
#include <cstring>

#include "ops/shape/shape.h"
#include "tensor/storage_size.h"
#include "util/error.h"

namespace pt2web {

namespace {

Tensor resized(const OpCall& c, const Tensor& self, const Shape& sizes, bool copy) {
  for (int64_t s : sizes)
    if (s < 0)
      fail(ErrorCode::BadInput, c.where(), "Trying to create tensor with negative dimension ", s, ": ",
           shape_to_string(sizes));
  const size_t item = element_size(self.dtype());
  const size_t offset_bytes = static_cast<size_t>(self.storage_offset()) * item;
  const size_t needed = offset_bytes + storage_bytes(shape_numel(sizes), self.dtype());
  const size_t have = self.storage() ? self.storage()->nbytes() : 0;
  if (needed <= have && !copy) return self.as_strided(sizes, contiguous_strides(sizes), self.storage_offset());
  auto storage = Storage::allocate(std::max(needed, item));
  if (have > 0) std::memcpy(storage->data(), self.storage()->data(), std::min(have, needed));
  return Tensor(storage, self.dtype(), sizes, contiguous_strides(sizes), self.storage_offset());
}

void check_memory_format(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  if (v.kind == Value::Kind::MemoryFormat && v.i != 1)
    fail(ErrorCode::Unsupported, c.where(), "only the contiguous memory format is supported");
}

// resize_(self, size, *, memory_format)
void resize_inplace_op(OpCall& c) {
  check_memory_format(c, 2);
  c.push(resized(c, c.tensor(0), c.int_list(1), false));
}

// resize_as_(self, the_template, *, memory_format)
void resize_as_inplace_op(OpCall& c) {
  check_memory_format(c, 2);
  c.push(resized(c, c.tensor(0), c.tensor(1).sizes(), false));
}

// resize(self, size, *, memory_format): the functional form, on a copy.
void resize_op(OpCall& c) {
  check_memory_format(c, 2);
  c.push(resized(c, c.tensor(0), c.int_list(1), true));
}

}  // namespace

void register_resize_ops(OpTable& t) {
  t.add("aten::resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)",
        resize_inplace_op);
  t.add("aten::resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) -> Tensor(a!)",
        resize_as_inplace_op);
  t.add("aten::resize(Tensor self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor", resize_op);
}

}  // namespace pt2web
