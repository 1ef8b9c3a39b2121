// Comparisons (eq/ne/lt/le/gt/ge), logical and bitwise and/or/xor, where,
// clamp (and clamp_min/clamp_max/clip), maximum/minimum and fmax/fmin.
// Numbers compared with tensors are first rounded to the common dtype, as
// ATen's TensorIterator casts its wrapped-number inputs.
#include <cmath>
#include <limits>

#include "kernels/math/array_math.h"
#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

// ---- comparisons: common dtype in, bool out ----

#define PT2WEB_COMPARE_FN(Name, op)                   \
  struct Name {                                       \
    template <typename M>                             \
    bool operator()(M a, M b) const { return a op b; } \
  }

PT2WEB_COMPARE_FN(Eq, ==);
PT2WEB_COMPARE_FN(Ne, !=);
PT2WEB_COMPARE_FN(Lt, <);
PT2WEB_COMPARE_FN(Le, <=);
PT2WEB_COMPARE_FN(Gt, >);
PT2WEB_COMPARE_FN(Ge, >=);

#undef PT2WEB_COMPARE_FN

// Logical ops look at truthiness (non-zero, NaN included) in the common dtype.
struct LogicalAnd {
  template <typename M>
  bool operator()(M a, M b) const { return (a != M(0)) && (b != M(0)); }
};
struct LogicalOr {
  template <typename M>
  bool operator()(M a, M b) const { return (a != M(0)) || (b != M(0)); }
};
struct LogicalXor {
  template <typename M>
  bool operator()(M a, M b) const { return (a != M(0)) != (b != M(0)); }
};

// Comparison-like binary op (bool result); in place, the bools are written
// into self's dtype.
template <typename Fn, bool InPlace>
void predicate_binary(OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  DType dtype = result_type_of({&a, &b});
  check_kinds(c, dtype, Kinds::All);
  Tensor out = map_elements<Kinds::All, true>(dtype, Fn{}, kernel_input(a, dtype), kernel_input(b, dtype));
  push_result(c, out, InPlace);
}

// ---- bitwise ops: bool and integers only ----

struct BitAnd {
  template <typename M>
  M operator()(M a, M b) const { return static_cast<M>(a & b); }
};
struct BitOr {
  template <typename M>
  M operator()(M a, M b) const { return static_cast<M>(a | b); }
};
struct BitXor {
  template <typename M>
  M operator()(M a, M b) const { return static_cast<M>(a ^ b); }
};

template <typename Fn, bool InPlace>
void bitwise_binary(OpCall& c) {
  Operand a = operand(c, 0), b = operand(c, 1);
  DType dtype = result_type_of({&a, &b});
  check_kinds(c, dtype, Kinds::Integral);
  Tensor out = map_elements<Kinds::Integral, false>(dtype, Fn{}, kernel_input(a, dtype), kernel_input(b, dtype));
  push_result(c, out, InPlace);
}

// ---- maximum/minimum (NaN wins) and fmax/fmin (NaN loses) ----

template <bool Max, bool PropagateNan>
struct Extreme {
  template <typename M>
  M operator()(M a, M b) const {
    if constexpr (std::is_floating_point<M>::value) {
      if (std::isnan(a)) return PropagateNan ? a : b;
      if (std::isnan(b)) return PropagateNan ? b : a;
    }
    if constexpr (Max) return a < b ? b : a;
    else return b < a ? b : a;
  }
};

template <bool Max, bool PropagateNan>
Tensor extreme(const OpCall& c, const Operand& a, const Operand& b) {
  DType dtype = result_type_of({&a, &b});
  check_kinds(c, dtype, Kinds::All);
  return map_elements<Kinds::All, false>(dtype, Extreme<Max, PropagateNan>{}, kernel_input(a, dtype),
                                         kernel_input(b, dtype));
}

template <bool Max, bool PropagateNan>
void extreme_op(OpCall& c) {
  c.push(extreme<Max, PropagateNan>(c, operand(c, 0), operand(c, 1)));
}

// ---- where ----

Tensor select_where(const OpCall& c, const Tensor& condition, const Operand& a, const Operand& b) {
  if (condition.dtype() != DType::Bool && condition.dtype() != DType::UInt8)
    fail(ErrorCode::BadInput, c.where(), "where expected condition to be a boolean tensor, but got a tensor with dtype ",
         dtype_name(condition.dtype()));
  DType dtype = result_type_of({&a, &b});
  check_kinds(c, dtype, Kinds::All);
  return map_elements<Kinds::All, false>(
      dtype, [](auto cond, auto x, auto y) { return cond != decltype(cond)(0) ? x : y; },
      kernel_input(operand(condition), dtype), kernel_input(a, dtype), kernel_input(b, dtype));
}

void where_op(OpCall& c) { c.push(select_where(c, c.tensor(0), operand(c, 1), operand(c, 2))); }

// ---- clamp ----

[[noreturn]] void fail_no_bounds(const OpCall& c) {
  fail(ErrorCode::BadInput, c.where(), "torch.clamp: At least one of 'min' or 'max' must not be None");
}

// clamp with tensor bounds: a NaN anywhere gives NaN (maximum/minimum semantics).
Tensor clamp_with_tensors(const OpCall& c, const Operand& self, const std::optional<Operand>& lo,
                          const std::optional<Operand>& hi) {
  if (!lo && !hi) fail_no_bounds(c);
  if (!hi) return extreme<true, true>(c, self, *lo);
  if (!lo) return extreme<false, true>(c, self, *hi);
  DType dtype = result_type_of({&self, &*lo, &*hi});
  check_kinds(c, dtype, Kinds::Numeric);
  return map_elements<Kinds::All, false>(dtype, [](auto x, auto l, auto h) {
    using M = decltype(x);
    if (is_nan(l)) return l;
    if (is_nan(h)) return h;
    M lower = x < l ? l : x;  // NaN x stays NaN through both steps
    return h < lower ? h : lower;
  }, kernel_input(self, dtype), kernel_input(*lo, dtype), kernel_input(*hi, dtype));
}

std::optional<Operand> optional_bound(const OpCall& c, size_t index) {
  if (c.arg(index).is_none()) return std::nullopt;
  if (c.arg(index).is_tensor() && !c.arg(index).tensor.defined()) return std::nullopt;
  return operand(c, index);
}

template <bool InPlace>
void clamp_scalar_op(OpCall& c) {
  push_result(c, clamp_scalars(c, c.tensor(0), c.optional_scalar(1), c.optional_scalar(2)), InPlace);
}

template <bool InPlace>
void clamp_tensor_op(OpCall& c) {
  push_result(c, clamp_with_tensors(c, operand(c, 0), optional_bound(c, 1), optional_bound(c, 2)), InPlace);
}

// clamp_min / clamp_max with a Scalar or Tensor bound.
template <bool Max, bool InPlace>
void clamp_one_op(OpCall& c) {
  Operand bound = operand(c, 1);
  Tensor out;
  if (bound.is_number()) {
    out = Max ? clamp_scalars(c, c.tensor(0), std::nullopt, bound.number)
              : clamp_scalars(c, c.tensor(0), bound.number, std::nullopt);
  } else {
    std::optional<Operand> b = bound;
    out = Max ? clamp_with_tensors(c, operand(c, 0), std::nullopt, b)
              : clamp_with_tensors(c, operand(c, 0), b, std::nullopt);
  }
  push_result(c, out, InPlace);
}

// Registers name.variant and name_.variant for an op family of the form
// (Tensor self, <args>) -> Tensor.
void add_with_in_place(OpTable& t, const std::string& name, const std::string& overload, const std::string& args,
                       KernelFn functional, KernelFn in_place) {
  std::string suffix = overload.empty() ? "" : "." + overload;
  t.add("aten::" + name + suffix + "(Tensor self" + args + ") -> Tensor", functional);
  t.add("aten::" + name + "_" + suffix + "(Tensor(a!) self" + args + ") -> Tensor(a!)", in_place);
}

template <typename Fn>
void add_comparison(OpTable& t, const std::string& name) {
  add_with_in_place(t, name, "Tensor", ", Tensor other", predicate_binary<Fn, false>, predicate_binary<Fn, true>);
  add_with_in_place(t, name, "Scalar", ", Scalar other", predicate_binary<Fn, false>, predicate_binary<Fn, true>);
}

// bitwise_<op> and Python's operator for it (a & b is aten::__and__, a &= b
// aten::__iand__), which ATen defines as that function: the same kernel.
template <typename Fn>
void add_bitwise(OpTable& t, const std::string& name, const std::string& python_op) {
  add_with_in_place(t, name, "Tensor", ", Tensor other", bitwise_binary<Fn, false>, bitwise_binary<Fn, true>);
  add_with_in_place(t, name, "Scalar", ", Scalar other", bitwise_binary<Fn, false>, bitwise_binary<Fn, true>);
  t.add("aten::" + name + ".Scalar_Tensor(Scalar self, Tensor other) -> Tensor", bitwise_binary<Fn, false>);
  for (const char* overload : {"Tensor", "Scalar"}) {
    const std::string other = std::string(overload) == "Tensor" ? "Tensor other" : "Scalar other";
    t.add("aten::__" + python_op + "__." + overload + "(Tensor self, " + other + ") -> Tensor",
          bitwise_binary<Fn, false>);
    t.add("aten::__i" + python_op + "__." + overload + "(Tensor(a!) self, " + other + ") -> Tensor(a!)",
          bitwise_binary<Fn, true>);
  }
}

}  // namespace

namespace elementwise {

// clamp with number bounds: result_type(self, min, max) (integer tensors
// clamped by float bounds become float); NaN inputs stay NaN.
Tensor clamp_scalars(const OpCall& c, const Tensor& self, std::optional<Scalar> lo, std::optional<Scalar> hi,
                     bool in_place) {
  if (!lo && !hi) fail_no_bounds(c);
  ResultType r;
  r.add(self);
  if (lo) r.add(*lo);
  if (hi) r.add(*hi);
  DType dtype = r.get();
  check_kinds(c, dtype, Kinds::Numeric);
  // Bounds are rounded to the compute dtype (as ATen's kernel does); an
  // absent bound is passed as a placeholder that the kernel ignores.
  Scalar unused;
  Tensor lo_t = kernel_input(operand(lo.value_or(unused)), dtype);
  Tensor hi_t = kernel_input(operand(hi.value_or(unused)), dtype);
  bool has_lo = lo.has_value(), has_hi = hi.has_value();
  if (dtype == DType::Float32 && self.dtype() == DType::Float32) {
    const float lo_f = has_lo ? lo_t.data<float>()[0] : -std::numeric_limits<float>::infinity();
    const float hi_f = has_hi ? hi_t.data<float>()[0] : std::numeric_limits<float>::infinity();
    auto scalar = [=](float v) { return std::min(std::max(v, lo_f), hi_f); };  // unused: self is float32
    auto vectorized = [=](const float* in, float* out, int64_t n) { clamp_f32(in, out, n, lo_f, hi_f); };
    return map_unary_vectorized<Kinds::Floating>(dtype, scalar, vectorized, self, in_place);
  }
  return map_elements<Kinds::All, false>(dtype, [=](auto v, auto l, auto h) {
    auto out = v;  // NaN compares false and stays NaN
    if (has_lo && out < l) out = l;
    if (has_hi && h < out) out = h;
    return out;
  }, kernel_input(operand(self), dtype), lo_t, hi_t);
}

}  // namespace elementwise

void register_comparison_logical_ops(OpTable& t) {
  add_comparison<Eq>(t, "eq");
  add_comparison<Ne>(t, "ne");
  add_comparison<Lt>(t, "lt");
  add_comparison<Le>(t, "le");
  add_comparison<Gt>(t, "gt");
  add_comparison<Ge>(t, "ge");

  add_with_in_place(t, "logical_and", "", ", Tensor other", predicate_binary<LogicalAnd, false>,
                    predicate_binary<LogicalAnd, true>);
  add_with_in_place(t, "logical_or", "", ", Tensor other", predicate_binary<LogicalOr, false>,
                    predicate_binary<LogicalOr, true>);
  add_with_in_place(t, "logical_xor", "", ", Tensor other", predicate_binary<LogicalXor, false>,
                    predicate_binary<LogicalXor, true>);

  add_bitwise<BitAnd>(t, "bitwise_and", "and");
  add_bitwise<BitOr>(t, "bitwise_or", "or");
  add_bitwise<BitXor>(t, "bitwise_xor", "xor");

  t.add("aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", where_op);
  t.add("aten::where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor", where_op);
  t.add("aten::where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor", where_op);
  t.add("aten::where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", where_op);

  for (const char* name : {"clamp", "clip"}) {
    add_with_in_place(t, name, "", ", Scalar? min=None, Scalar? max=None", clamp_scalar_op<false>,
                      clamp_scalar_op<true>);
    add_with_in_place(t, name, "Tensor", ", Tensor? min=None, Tensor? max=None", clamp_tensor_op<false>,
                      clamp_tensor_op<true>);
  }
  add_with_in_place(t, "clamp_min", "", ", Scalar min", clamp_one_op<false, false>, clamp_one_op<false, true>);
  add_with_in_place(t, "clamp_min", "Tensor", ", Tensor min", clamp_one_op<false, false>, clamp_one_op<false, true>);
  add_with_in_place(t, "clamp_max", "", ", Scalar max", clamp_one_op<true, false>, clamp_one_op<true, true>);
  add_with_in_place(t, "clamp_max", "Tensor", ", Tensor max", clamp_one_op<true, false>, clamp_one_op<true, true>);

  t.add("aten::maximum(Tensor self, Tensor other) -> Tensor", extreme_op<true, true>);
  t.add("aten::minimum(Tensor self, Tensor other) -> Tensor", extreme_op<false, true>);
  t.add("aten::fmax(Tensor self, Tensor other) -> Tensor", extreme_op<true, false>);
  t.add("aten::fmin(Tensor self, Tensor other) -> Tensor", extreme_op<false, false>);
}

}  // namespace pt2web
