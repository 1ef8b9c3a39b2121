#include "ops/elementwise.h"

namespace pt2web {
namespace elementwise {

Operand operand(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  if (v.is_tensor()) return operand(c.tensor(index));
  if (v.is_number()) return operand(c.scalar(index));
  fail(ErrorCode::BadInput, c.where(), "argument '", c.arg_name(index), "' must be a Tensor or a number, got ",
       value_kind_name(v.kind));
}

DType result_type_of(std::initializer_list<const Operand*> operands) {
  ResultType r;
  for (const Operand* o : operands) {
    if (o->is_number()) r.add(*o->number);
    else r.add(o->tensor);
  }
  return r.get();
}

DType opmath_dtype(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : dtype;
}

Tensor kernel_input(const Operand& o, DType compute, NumberRounding rounding) {
  DType math = opmath_dtype(compute);
  if (o.is_number()) {
    if (rounding == NumberRounding::Compute && compute != math) return scalar_tensor(*o.number, compute).to(math);
    return scalar_tensor(*o.number, math);
  }
  Tensor t = o.tensor;
  // Casting to the compute dtype first rounds e.g. int64 -> bfloat16 the way
  // ATen's TensorIterator does before the kernel widens to float.
  if (t.dtype() != compute) t = t.to(compute);
  if (t.dtype() != math) t = t.to(math);
  return t;
}

void check_kinds(const OpCall& c, DType dtype, Kinds kinds) {
  bool ok = false;
  switch (kinds) {
    case Kinds::All: ok = !is_complex(dtype); break;
    case Kinds::Numeric: ok = !is_complex(dtype) && dtype != DType::Bool; break;
    case Kinds::Floating: ok = is_floating(dtype) && element_size(dtype) >= 2; break;
    case Kinds::Integral: ok = dtype == DType::Bool || is_integral(dtype); break;
  }
  if (!ok) fail_not_implemented_for(c, dtype);
}

void fail_not_implemented_for(const OpCall& c, DType dtype) {
  fail_not_implemented_for(c, c.schema().name.substr(c.schema().name.find("::") + 2), dtype);
}

void fail_not_implemented_for(const OpCall& c, const std::string& kernel, DType dtype) {
  fail(ErrorCode::BadInput, c.where(), "\"", kernel, "\" not implemented for '", dtype_name(dtype), "'");
}

namespace {

// ATen's canCast: no float -> integer, complex -> real or number -> bool.
bool can_cast(DType from, DType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && !is_floating(to) && !is_complex(to)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

}  // namespace

Tensor write_in_place(const OpCall& c, const Tensor& self, const Tensor& value) {
  if (!can_cast(value.dtype(), self.dtype()))
    fail(ErrorCode::BadInput, c.where(), "result type ", dtype_name(value.dtype()),
         " can't be cast to the desired output type ", dtype_name(self.dtype()));
  if (value.sizes() != self.sizes())
    fail(ErrorCode::BadInput, c.where(), "output with shape ", shape_to_string(self.sizes()),
         " doesn't match the broadcast shape ", shape_to_string(value.sizes()));
  return assign_in_place(self, value);
}

Tensor write_out(const OpCall& c, const Tensor& out, const Tensor& value) {
  if (value.sizes() == out.sizes()) return write_in_place(c, out, value);
  if (!can_cast(value.dtype(), out.dtype()))
    fail(ErrorCode::BadInput, c.where(), "result type ", dtype_name(value.dtype()),
         " can't be cast to the desired output type ", dtype_name(out.dtype()));
  return value.to(out.dtype(), true);
}

void fail_integer_division_by_zero() { fail(ErrorCode::BadInput, "ZeroDivisionError: integer division by zero"); }

void push_result(OpCall& c, const Tensor& value, bool in_place) {
  if (!in_place) return c.push(value);
  const Tensor& self = c.tensor(0);
  // A vectorized map may have written into self already (map_unary_vectorized).
  const bool already_self = value.storage() == self.storage() && value.storage_offset() == self.storage_offset() &&
                            value.sizes() == self.sizes() && value.strides() == self.strides() &&
                            value.dtype() == self.dtype();
  c.push(already_self ? self : write_in_place(c, self, value));
}

}  // namespace elementwise
}  // namespace pt2web
