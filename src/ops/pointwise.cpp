// Elementwise arithmetic with broadcasting and ATen type promotion:
// add/sub/mul/div (Tensor and Scalar overloads, in-place variants) and relu.
#include <cmath>

#include "ops/families.h"
#include "ops/op_utils.h"
#include "ops/type_promotion.h"

namespace pt2web {

namespace {

// The second operand of a binary op: a tensor, or a Scalar as a 0-dim tensor
// of its default dtype (which loses to any tensor's category in promotion).
struct Operand {
  Tensor tensor;
  DType promoted;
};

Operand other_operand(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  const Tensor& self = c.tensor(0);
  if (v.is_tensor()) return {v.tensor, result_type(self, v.tensor)};
  Scalar s = c.scalar(index);
  DType dtype = result_type(self, s);
  return {scalar_tensor(s, dtype), dtype};
}

void check_in_place(const OpCall& c, DType result) {
  const Tensor& self = c.tensor(0);
  if (promote_types(self.dtype(), result) != self.dtype() ||
      (promotion_category(result) > promotion_category(self.dtype())))
    fail(ErrorCode::BadInput, c.where(), "result type ", dtype_name(result), " can't be cast to the desired output type ",
         dtype_name(self.dtype()));
}

template <typename F>
void binary_op(OpCall& c, bool in_place, F f, std::optional<size_t> alpha_index = std::nullopt) {
  const Tensor& self = c.tensor(0);
  Operand other = other_operand(c, 1);
  DType dtype = other.promoted;
  double alpha = alpha_index ? c.scalar(*alpha_index).to_double() : 1.0;
  if (alpha_index && alpha != 1.0 && !is_floating(dtype) && c.scalar(*alpha_index).kind == Scalar::Kind::Double)
    fail(ErrorCode::BadInput, c.where(), "for integral input tensors, argument alpha must not be a floating point number.");
  Tensor out = binary_map(self, other.tensor, dtype, dtype, [&](auto a, auto b) {
    using M = decltype(a);
    return f(a, alpha == 1.0 ? b : static_cast<M>(b * static_cast<M>(alpha)));
  });
  if (in_place) {
    check_in_place(c, dtype);
    c.push(assign_in_place(self, out));
  } else {
    c.push(out);
  }
}

auto add_fn = [](auto a, auto b) { return a + b; };
auto sub_fn = [](auto a, auto b) { return a - b; };
auto mul_fn = [](auto a, auto b) {
  using M = decltype(a);
  if constexpr (std::is_same<M, bool>::value) return static_cast<bool>(a && b);
  else return a * b;
};

void add_tensor(OpCall& c) { binary_op(c, false, add_fn, 2); }
void add_inplace(OpCall& c) { binary_op(c, true, add_fn, 2); }
void sub_tensor(OpCall& c) {
  if (c.tensor(0).dtype() == DType::Bool)
    fail(ErrorCode::BadInput, c.where(), "subtraction with two bool tensors is not supported; use logical_xor");
  binary_op(c, false, sub_fn, 2);
}
void sub_inplace(OpCall& c) { binary_op(c, true, sub_fn, 2); }
void mul_tensor(OpCall& c) { binary_op(c, false, mul_fn); }
void mul_inplace(OpCall& c) { binary_op(c, true, mul_fn); }

// True division always produces a floating result.
void div_impl(OpCall& c, bool in_place, const std::optional<std::string>& mode) {
  const Tensor& self = c.tensor(0);
  Operand other = other_operand(c, 1);
  DType dtype = mode ? other.promoted : to_floating(other.promoted);
  Tensor out;
  if (!mode) {
    out = binary_map(self, other.tensor, dtype, dtype, [](auto a, auto b) { return a / b; });
  } else if (*mode == "trunc" || *mode == "floor") {
    bool floor_mode = *mode == "floor";
    out = binary_map(self, other.tensor, dtype, dtype, [&](auto a, auto b) {
      using M = decltype(a);
      if constexpr (std::is_floating_point<M>::value) {
        M q = a / b;
        return floor_mode ? std::floor(q) : std::trunc(q);
      } else if constexpr (std::is_same<M, bool>::value) {
        return a;
      } else {
        if (b == 0) fail(ErrorCode::BadInput, "ZeroDivisionError: integer division by zero");
        M q = a / b;
        if (floor_mode && (a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
        return q;
      }
    });
  } else {
    fail(ErrorCode::BadInput, c.where(), "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
         *mode, "'");
  }
  if (in_place) {
    check_in_place(c, dtype);
    c.push(assign_in_place(self, out));
  } else {
    c.push(out);
  }
}

void div_tensor(OpCall& c) { div_impl(c, false, std::nullopt); }
void div_inplace(OpCall& c) { div_impl(c, true, std::nullopt); }
void div_mode(OpCall& c) { div_impl(c, false, c.optional_string(2)); }

template <bool InPlace>
void relu_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dtype() == DType::Bool) fail(ErrorCode::BadInput, c.where(), "relu is not defined for bool tensors");
  Tensor out = unary_map(x, x.dtype(), x.dtype(), [](auto v) {
    using M = decltype(v);
    return v > M(0) ? v : (v != v ? v : M(0));  // NaN propagates
  });
  c.push(InPlace ? assign_in_place(x, out) : out);
}

}  // namespace

void register_pointwise_ops(OpTable& t) {
  t.add("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", add_tensor);
  t.add("aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", add_tensor);
  t.add("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", add_inplace);
  t.add("aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", add_inplace);
  t.add("aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", sub_tensor);
  t.add("aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", sub_tensor);
  t.add("aten::sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", sub_inplace);
  t.add("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", mul_tensor);
  t.add("aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", mul_tensor);
  t.add("aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", mul_inplace);
  t.add("aten::mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", mul_inplace);
  t.add("aten::div.Tensor(Tensor self, Tensor other) -> Tensor", div_tensor);
  t.add("aten::div.Scalar(Tensor self, Scalar other) -> Tensor", div_tensor);
  t.add("aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", div_inplace);
  t.add("aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", div_mode);
  t.add("aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", div_mode);
  t.add("aten::relu(Tensor self) -> Tensor", relu_op<false>);
  t.add("aten::relu_(Tensor(a!) self) -> Tensor(a!)", relu_op<true>);
}

}  // namespace pt2web
