// Integer-only binary ops with broadcasting and promotion: bitwise shifts
// (a shift by a negative count or by at least the type's width gives 0 to
// the left and the sign fill to the right, as ATen defines), gcd and lcm
// (non-negative; the absolute value of the lowest int64 wraps to itself,
// as in torch). Bool and floating inputs are refused as ATen does.
#include <type_traits>

#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

template <typename F>
Tensor map_integers(const OpCall& c, F&& f) {
  Operand a = operand(c, 0), b = operand(c, 1);
  DType dtype = result_type_of({&a, &b});
  if (!is_integral(dtype) || dtype == DType::Bool) fail_not_implemented_for(c, dtype);
  return map_elements<Kinds::Integral, false>(dtype, std::forward<F>(f), kernel_input(a, dtype), kernel_input(b, dtype));
}

// The shift count is out of range when negative (read as signed) or >= width.
template <typename M>
bool shift_out_of_range(M count) {
  using S = std::make_signed_t<M>;
  return static_cast<S>(count) < 0 || static_cast<uint64_t>(count) >= sizeof(M) * 8;
}

struct LeftShift {
  template <typename M>
  M operator()(M a, M count) const {
    if constexpr (std::is_same<M, bool>::value) {
      return a;  // unreachable: bool is refused
    } else {
      if (shift_out_of_range(count)) return 0;
      using U = std::make_unsigned_t<M>;
      return static_cast<M>(static_cast<U>(a) << count);
    }
  }
};

struct RightShift {
  template <typename M>
  M operator()(M a, M count) const {
    if constexpr (std::is_same<M, bool>::value) {
      return a;  // unreachable: bool is refused
    } else {
      if (shift_out_of_range(count)) {
        if constexpr (std::is_signed<M>::value) return a < 0 ? M(-1) : M(0);
        else return 0;
      }
      return static_cast<M>(a >> count);
    }
  }
};

// |v| with the lowest value wrapping to itself.
template <typename M>
M wrapping_abs(M v) {
  if constexpr (std::is_signed<M>::value) return v < 0 ? wrapping_sub(M(0), v) : v;
  else return v;
}

template <typename M>
M gcd_of(M a, M b) {
  a = wrapping_abs(a);
  b = wrapping_abs(b);
  while (a != 0) {
    const M r = static_cast<M>(b % a);
    b = a;
    a = r;
  }
  return b;
}

struct Gcd {
  template <typename M>
  M operator()(M a, M b) const {
    if constexpr (std::is_same<M, bool>::value) return a;  // unreachable: bool is refused
    else return gcd_of(a, b);
  }
};

struct Lcm {
  template <typename M>
  M operator()(M a, M b) const {
    if constexpr (std::is_same<M, bool>::value) {
      return a;  // unreachable: bool is refused
    } else {
      const M g = gcd_of(a, b);
      return g == 0 ? M(0) : wrapping_abs(wrapping_mul(static_cast<M>(a / g), b));
    }
  }
};

template <typename Fn, bool InPlace>
void integer_binary(OpCall& c) {
  push_result(c, map_integers(c, Fn{}), InPlace);
}

}  // namespace

void register_integer_bits_ops(OpTable& t) {
  t.add("aten::bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor", integer_binary<LeftShift, false>);
  t.add("aten::bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", integer_binary<LeftShift, false>);
  t.add("aten::bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", integer_binary<LeftShift, false>);
  t.add("aten::bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        integer_binary<LeftShift, true>);
  t.add("aten::bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
        integer_binary<LeftShift, true>);
  t.add("aten::bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor", integer_binary<RightShift, false>);
  t.add("aten::bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor",
        integer_binary<RightShift, false>);
  t.add("aten::bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor",
        integer_binary<RightShift, false>);
  t.add("aten::bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        integer_binary<RightShift, true>);
  t.add("aten::bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
        integer_binary<RightShift, true>);
  // Python's << and >> (and <<=, >>=): ATen's __lshift__ and __rshift__ run
  // the shift kernels of bitwise_left_shift and bitwise_right_shift.
  t.add("aten::__lshift__.Tensor(Tensor self, Tensor other) -> Tensor", integer_binary<LeftShift, false>);
  t.add("aten::__lshift__.Scalar(Tensor self, Scalar other) -> Tensor", integer_binary<LeftShift, false>);
  t.add("aten::__ilshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", integer_binary<LeftShift, true>);
  t.add("aten::__ilshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", integer_binary<LeftShift, true>);
  t.add("aten::__rshift__.Tensor(Tensor self, Tensor other) -> Tensor", integer_binary<RightShift, false>);
  t.add("aten::__rshift__.Scalar(Tensor self, Scalar other) -> Tensor", integer_binary<RightShift, false>);
  t.add("aten::__irshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", integer_binary<RightShift, true>);
  t.add("aten::__irshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", integer_binary<RightShift, true>);
  t.add("aten::gcd(Tensor self, Tensor other) -> Tensor", integer_binary<Gcd, false>);
  t.add("aten::gcd_(Tensor(a!) self, Tensor other) -> Tensor(a!)", integer_binary<Gcd, true>);
  t.add("aten::lcm(Tensor self, Tensor other) -> Tensor", integer_binary<Lcm, false>);
  t.add("aten::lcm_(Tensor(a!) self, Tensor other) -> Tensor(a!)", integer_binary<Lcm, true>);
}

}  // namespace pt2web
