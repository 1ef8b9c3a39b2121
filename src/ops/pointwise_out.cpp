// out= variants of pointwise ops: atan2.out.
//
// ATen computes in the inputs' common dtype (out does not take part in type
// promotion), checks that the result can be cast to out's dtype, and writes
// into out, resizing it when its shape differs. pt2web tensors cannot change
// shape in place, so an out of another shape is replaced: the op returns a
// new tensor of out's dtype, which is what the graph's later nodes read
// through this node's result.
#include <cmath>

#include "ops/elementwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

// Writes `value` into out (same shape) or returns it converted to out's dtype.
Tensor write_out(const OpCall& c, const Tensor& out, const Tensor& value) {
  if (value.sizes() == out.sizes()) return write_in_place(c, out, value);
  if (is_floating(value.dtype()) && !is_floating(out.dtype()) && !is_complex(out.dtype()))
    fail(ErrorCode::BadInput, c.where(), "result type ", dtype_name(value.dtype()),
         " can't be cast to the desired output type ", dtype_name(out.dtype()));
  return value.to(out.dtype(), true);
}

void atan2_out(OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  DType dtype = to_floating(result_type_of({&a, &b}));
  check_kinds(c, dtype, Kinds::Floating);
  Tensor value = map_elements<Kinds::Floating, false>(
      dtype, [](auto y, auto x) { return std::atan2(y, x); }, kernel_input(a, dtype), kernel_input(b, dtype));
  c.push(write_out(c, c.tensor(2), value));
}

}  // namespace

void register_pointwise_out_ops(OpTable& t) {
  t.add("aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", atan2_out);
}

}  // namespace pt2web
