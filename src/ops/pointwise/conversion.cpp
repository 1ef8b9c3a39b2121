// dtype conversions and identities of inference: _to_copy, the to.*
// overloads, type_as and lift_fresh(_copy). (Dropout: ops/nn/dropout.cpp.)
//
// pt2web runs on the CPU with strided tensors only: conversions to another
// device or layout are Error(Unsupported). Memory formats change strides but
// not values, so copies here are always contiguous.
#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

// The export schema's number for torch.strided and for contiguous_format.
constexpr int64_t kStridedLayout = 7;
constexpr int64_t kContiguousFormat = 1;

void check_device(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  if (v.is_none()) return;
  if (v.kind != Value::Kind::Device || v.s.rfind("cpu", 0) != 0)
    fail(ErrorCode::Unsupported, c.where(), "pt2web runs programs on the CPU; device '", v.s, "' is not supported");
}

void check_layout(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  if (v.is_none()) return;
  if (v.kind != Value::Kind::Layout || v.i != kStridedLayout)
    fail(ErrorCode::Unsupported, c.where(), "only strided tensors are supported (layout ", v.i, ")");
}

bool wants_contiguous(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  return v.kind == Value::Kind::MemoryFormat && v.i == kContiguousFormat;
}

// Tensor.to semantics: self itself when nothing changes and no copy was
// asked for, otherwise a new tensor.
Tensor convert(const Tensor& self, DType dtype, bool copy, bool contiguous) {
  if (dtype == self.dtype() && !copy && (!contiguous || self.is_contiguous())) return self;
  return self.to(dtype, true);
}

// _to_copy(self, *, dtype, layout, device, pin_memory, non_blocking, memory_format): always a copy.
void to_copy_op(OpCall& c) {
  check_layout(c, 2);
  check_device(c, 3);
  const Tensor& self = c.tensor(0);
  c.push(self.to(c.optional_dtype(1).value_or(self.dtype()), true));
}

// to.dtype(self, dtype, non_blocking, copy, memory_format)
void to_dtype_op(OpCall& c) {
  c.push(convert(c.tensor(0), *c.optional_dtype(1), c.bool_arg(3), wants_contiguous(c, 4)));
}

// to.dtype_layout(self, *, dtype, layout, device, pin_memory, non_blocking, copy, memory_format)
void to_dtype_layout_op(OpCall& c) {
  check_layout(c, 2);
  check_device(c, 3);
  const Tensor& self = c.tensor(0);
  c.push(convert(self, c.optional_dtype(1).value_or(self.dtype()), c.bool_arg(6), wants_contiguous(c, 7)));
}

// to.device(self, device, dtype, non_blocking, copy, memory_format)
void to_device_op(OpCall& c) {
  check_device(c, 1);
  c.push(convert(c.tensor(0), *c.optional_dtype(2), c.bool_arg(4), wants_contiguous(c, 5)));
}

// to.other(self, other, non_blocking, copy, memory_format): other's dtype.
void to_other_op(OpCall& c) {
  c.push(convert(c.tensor(0), c.tensor(1).dtype(), c.bool_arg(3), wants_contiguous(c, 4)));
}

void type_as_op(OpCall& c) { c.push(convert(c.tensor(0), c.tensor(1).dtype(), false, false)); }

void lift_fresh_op(OpCall& c) { c.push(c.tensor(0)); }
void lift_fresh_copy_op(OpCall& c) { c.push(c.tensor(0).clone()); }

}  // namespace

void register_conversion_ops(OpTable& t) {
  t.add("aten::_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor",
        to_copy_op);
  t.add("aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
        "MemoryFormat? memory_format=None) -> Tensor(a)",
        to_dtype_op);
  t.add("aten::to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, "
        "MemoryFormat? memory_format=None) -> Tensor(a)",
        to_dtype_layout_op);
  t.add("aten::to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, "
        "bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
        to_device_op);
  t.add("aten::to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, "
        "MemoryFormat? memory_format=None) -> Tensor(a)",
        to_other_op);
  t.add("aten::type_as(Tensor self, Tensor other) -> Tensor", type_as_op);
  t.add("aten::lift_fresh(Tensor(a) self) -> Tensor(a)", lift_fresh_op);
  t.add("aten::lift_fresh_copy(Tensor self) -> Tensor", lift_fresh_copy_op);
}

}  // namespace pt2web
