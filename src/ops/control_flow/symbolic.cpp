// Symbolic-int operators (sizes read at run time and arithmetic on them, as
// Python's operator module and torch.sym_* spell them) and runtime assertions.
#include <cmath>
#include <limits>

#include "ops/control_flow/control_flow.h"
#include "ops/existing_dim.h"
#include "ops/op_utils.h"

namespace pt2web {

namespace {

void sym_size_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  c.outputs.push_back(Value::from_int(x.sizes()[existing_dim(x, c.int_arg(1), c.where())]));
}
void sym_stride_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  c.outputs.push_back(Value::from_int(x.strides()[existing_dim(x, c.int_arg(1), c.where())]));
}
void sym_numel_op(OpCall& c) { c.outputs.push_back(Value::from_int(c.tensor(0).numel())); }
void sym_storage_offset_op(OpCall& c) { c.outputs.push_back(Value::from_int(c.tensor(0).storage_offset())); }

// Python's ints do not overflow; pt2web's size arithmetic is int64, so a
// result past its range is refused instead of wrapping into a wrong size.
[[noreturn]] void fail_overflow(const char* op) {
  fail(ErrorCode::BadInput, "integer overflow in a size expression (", op, "): the result is past int64");
}

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) fail_overflow("+");
  return r;
}
int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) fail_overflow("-");
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail_overflow("*");
  return r;
}

// A float's integer part as an int64 (trunc, floor, ceil, int()).
int64_t to_int64(double v, const char* op) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
    fail(ErrorCode::BadInput, op, "(", v, ") in a size expression is not an int64");
  return static_cast<int64_t>(v);
}

int64_t floor_div(int64_t a, int64_t b) {
  if (b == 0) fail(ErrorCode::BadInput, "integer division by zero in a size expression");
  if (a == std::numeric_limits<int64_t>::min() && b == -1) fail_overflow("//");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool both_int(const OpCall& c) {
  return c.arg(0).kind != Value::Kind::Double && c.arg(1).kind != Value::Kind::Double;
}

// Binary Python arithmetic on ints (or floats when either side is a float).
template <typename IntF, typename FloatF>
void python_binary(OpCall& c, IntF int_fn, FloatF float_fn) {
  if (both_int(c)) c.outputs.push_back(Value::from_int(int_fn(c.arg(0).to_int(), c.arg(1).to_int())));
  else c.outputs.push_back(Value::from_double(float_fn(c.arg(0).to_double(), c.arg(1).to_double())));
}

template <typename F>
void python_compare(OpCall& c, F f) {
  c.outputs.push_back(Value::from_bool(f(c.arg(0).to_double(), c.arg(1).to_double())));
}

void op_add(OpCall& c) { python_binary(c, checked_add, [](double a, double b) { return a + b; }); }
void op_sub(OpCall& c) { python_binary(c, checked_sub, [](double a, double b) { return a - b; }); }
void op_mul(OpCall& c) { python_binary(c, checked_mul, [](double a, double b) { return a * b; }); }
void op_floordiv(OpCall& c) {
  python_binary(c, floor_div, [](double a, double b) { return std::floor(a / b); });
}
void op_mod(OpCall& c) {
  // a - (a // b) * b never leaves int64 once the division did.
  python_binary(c, [](int64_t a, int64_t b) { return checked_sub(a, checked_mul(floor_div(a, b), b)); },
                [](double a, double b) { return a - std::floor(a / b) * b; });
}
void op_truediv(OpCall& c) { c.outputs.push_back(Value::from_double(c.arg(0).to_double() / c.arg(1).to_double())); }
void op_pow(OpCall& c) {
  python_binary(c, [](int64_t a, int64_t b) { return to_int64(std::round(std::pow(a, b)), "pow"); },
                [](double a, double b) { return std::pow(a, b); });
}
void op_max(OpCall& c) { python_binary(c, [](int64_t a, int64_t b) { return std::max(a, b); }, [](double a, double b) { return std::max(a, b); }); }
void op_min(OpCall& c) { python_binary(c, [](int64_t a, int64_t b) { return std::min(a, b); }, [](double a, double b) { return std::min(a, b); }); }
void op_eq(OpCall& c) { python_compare(c, [](double a, double b) { return a == b; }); }
void op_ne(OpCall& c) { python_compare(c, [](double a, double b) { return a != b; }); }
void op_lt(OpCall& c) { python_compare(c, [](double a, double b) { return a < b; }); }
void op_le(OpCall& c) { python_compare(c, [](double a, double b) { return a <= b; }); }
void op_gt(OpCall& c) { python_compare(c, [](double a, double b) { return a > b; }); }
void op_ge(OpCall& c) { python_compare(c, [](double a, double b) { return a >= b; }); }
void op_and(OpCall& c) { c.outputs.push_back(Value::from_bool(c.arg(0).to_int() && c.arg(1).to_int())); }
void op_or(OpCall& c) { c.outputs.push_back(Value::from_bool(c.arg(0).to_int() || c.arg(1).to_int())); }
void op_neg(OpCall& c) {
  const Value& v = c.arg(0);
  c.outputs.push_back(v.kind == Value::Kind::Double ? Value::from_double(-v.d) : Value::from_int(checked_sub(0, v.to_int())));
}
void op_not(OpCall& c) { c.outputs.push_back(Value::from_bool(!c.arg(0).to_int())); }
void op_trunc(OpCall& c) { c.outputs.push_back(Value::from_int(to_int64(std::trunc(c.arg(0).to_double()), "trunc"))); }
void op_floor(OpCall& c) { c.outputs.push_back(Value::from_int(to_int64(std::floor(c.arg(0).to_double()), "floor"))); }
void op_ceil(OpCall& c) { c.outputs.push_back(Value::from_int(to_int64(std::ceil(c.arg(0).to_double()), "ceil"))); }
void op_sym_float(OpCall& c) { c.outputs.push_back(Value::from_double(c.arg(0).to_double())); }
void op_sym_int(OpCall& c) { c.outputs.push_back(Value::from_int(to_int64(std::trunc(c.arg(0).to_double()), "int"))); }
void op_sym_sqrt(OpCall& c) { c.outputs.push_back(Value::from_double(std::sqrt(c.arg(0).to_double()))); }
void op_sym_ite(OpCall& c) { c.outputs.push_back(c.arg(0).to_int() ? c.arg(1) : c.arg(2)); }

void assert_scalar_op(OpCall& c) {
  if (!c.arg(0).to_int())
    fail(ErrorCode::BadInput, "runtime assertion failed: ", c.optional_string(1).value_or("(no message)"));
}
void assert_async_msg_op(OpCall& c) {
  const Tensor& condition = c.tensor(0);
  if (condition.numel() != 1)
    fail(ErrorCode::BadInput, c.where(), "Boolean value of Tensor with ",
         condition.numel() == 0 ? "no values" : "more than one value", " is ambiguous");
  if (condition.item_as_double() == 0.0)
    fail(ErrorCode::BadInput, "runtime assertion failed: ", c.string_arg(1));
}
void constrain_range_op(OpCall& c) {
  int64_t v = c.int_arg(0);
  auto lo = c.optional_int(1), hi = c.optional_int(2);
  if ((lo && v < *lo) || (hi && v > *hi))
    fail(ErrorCode::BadInput, "data-dependent value ", v, " is outside its allowed range [",
         lo ? std::to_string(*lo) : "-inf", ", ", hi ? std::to_string(*hi) : "inf", "]");
}
void nothing_op(OpCall&) {}
void local_scalar_dense_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.numel() != 1) fail(ErrorCode::BadInput, c.where(), "a tensor with ", x.numel(), " elements cannot be converted to a scalar");
  if (is_floating(x.dtype())) c.outputs.push_back(Value::from_double(x.item_as_double()));
  else if (x.dtype() == DType::Bool) c.outputs.push_back(Value::from_bool(x.item_as_int() != 0));
  else c.outputs.push_back(Value::from_int(x.item_as_int()));
}

}  // namespace

void register_symbolic_ops(OpTable& t) {
  t.add("aten::sym_size.int(Tensor self, int dim) -> SymInt", sym_size_op);
  t.add("aten::sym_stride.int(Tensor self, int dim) -> SymInt", sym_stride_op);
  t.add("aten::sym_numel(Tensor self) -> SymInt", sym_numel_op);
  t.add("aten::sym_storage_offset(Tensor self) -> SymInt", sym_storage_offset_op);
  t.add("aten::_local_scalar_dense(Tensor self) -> Scalar", local_scalar_dense_op);
  t.add("aten::item(Tensor self) -> Scalar", local_scalar_dense_op);
  t.add("aten::_assert_scalar(Scalar self, str assert_msg) -> ()", assert_scalar_op);
  t.add("aten::_assert_async.msg(Tensor self, str assert_msg) -> ()", assert_async_msg_op);
  t.add("aten::sym_constrain_range(Scalar size, *, int? min=None, int? max=None) -> ()", constrain_range_op);
  t.add("aten::sym_constrain_range_for_size(Scalar size, *, int? min=None, int? max=None) -> ()", constrain_range_op);
  // Metadata assertions that export inserts in training IR: the calling
  // convention has already checked the inputs they guard.
  t.add("aten::_assert_tensor_metadata(Tensor a, SymInt[1]? size=None, SymInt[1]? stride=None, ScalarType? dtype=None, "
        "*, Device? device=None, Layout? layout=None) -> ()",
        nothing_op);
  const char* binary = "(Scalar a, Scalar b) -> Scalar";
  struct Entry { const char* name; KernelFn fn; };
  const Entry ops[] = {
      {"_operator::add", op_add}, {"_operator::sub", op_sub}, {"_operator::mul", op_mul},
      {"_operator::floordiv", op_floordiv}, {"_operator::mod", op_mod}, {"_operator::truediv", op_truediv},
      {"_operator::pow", op_pow}, {"_operator::eq", op_eq}, {"_operator::ne", op_ne}, {"_operator::lt", op_lt},
      {"_operator::le", op_le}, {"_operator::gt", op_gt}, {"_operator::ge", op_ge}, {"_operator::and_", op_and},
      {"_operator::or_", op_or}, {"torch::sym_max", op_max}, {"torch::sym_min", op_min},
  };
  for (const auto& e : ops) t.add(std::string(e.name) + binary, e.fn);
  t.add("_operator::neg(Scalar a) -> Scalar", op_neg);
  t.add("_operator::not_(Scalar a) -> Scalar", op_not);
  t.add("torch::sym_not(Scalar a) -> Scalar", op_not);
  t.add("math::trunc(Scalar a) -> Scalar", op_trunc);
  t.add("math::floor(Scalar a) -> Scalar", op_floor);
  t.add("math::ceil(Scalar a) -> Scalar", op_ceil);
  t.add("torch::sym_float(Scalar a) -> Scalar", op_sym_float);
  t.add("torch::sym_int(Scalar a) -> Scalar", op_sym_int);
  t.add("torch::sym_sqrt(Scalar a) -> Scalar", op_sym_sqrt);
  t.add("torch::sym_ite(Scalar b, Scalar t, Scalar f) -> Scalar", op_sym_ite);
}

}  // namespace pt2web
