// Shared machinery of elementwise computation (the pointwise folder, and any
// operator that maps values elementwise): reading operands that may be
// tensors or numbers, ATen's dtype checks, and the one N-ary broadcasting
// map (map_elements) with its contiguous fast paths.
//
// How a kernel runs, following ATen's TensorIterator: the inputs are first
// cast to the op's common ("compute") dtype, then read in its opmath type
// (float for float16/bfloat16), and the result is rounded once into the
// output dtype (the compute dtype, or bool for predicates).
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <type_traits>
#include <utility>

#include "kernels/parallel/thread_pool.h"
#include "ops/op_utils.h"
#include "ops/registry.h"
#include "ops/type_promotion.h"

namespace pt2web {
namespace elementwise {

// One input of an elementwise op: a tensor, or a number. Numbers come from
// Scalar arguments and from Python numbers that the exporter left in Tensor
// slots (`x + 0.5` is add.Tensor(x, 0.5)); ATen treats both as "wrapped
// numbers", which lose type promotion to tensors of the same category.
struct Operand {
  Tensor tensor;
  std::optional<Scalar> number;
  bool is_number() const { return number.has_value(); }
  Shape sizes() const { return is_number() ? Shape{} : tensor.sizes(); }
};

Operand operand(const OpCall& c, size_t index);
inline Operand operand(const Tensor& t) { return Operand{t, std::nullopt}; }
inline Operand operand(const Scalar& s) { return Operand{Tensor(), s}; }

// ATen's result type over several operands.
DType result_type_of(std::initializer_list<const Operand*> operands);

// float32 for float16/bfloat16 (what kernels compute in), otherwise the dtype.
DType opmath_dtype(DType dtype);

// How a number operand is rounded before the kernel sees it. Arithmetic
// kernels (add, sub, mul, div, addcmul, lerp, ...) read numbers at opmath
// precision; comparisons, where, clamp and pow round them to the compute
// dtype first, as tensors are.
enum class NumberRounding { Opmath, Compute };

// The operand as the kernel reads it: a tensor of opmath_dtype(compute).
Tensor kernel_input(const Operand& o, DType compute, NumberRounding rounding = NumberRounding::Compute);

// Which dtypes a kernel accepts, mirroring ATen's dispatch macros.
enum class Kinds {
  All,         // bool, integers, floats
  Numeric,     // integers and floats (no bool)
  Floating,    // float16, bfloat16, float32, float64
  Integral,    // bool and integers
};

// "<op>" not implemented for '<dtype>' (ATen's wording) unless dtype is in kinds.
void check_kinds(const OpCall& c, DType dtype, Kinds kinds);

// Throws BadInput in ATen's dispatch wording: "<kernel>" not implemented
// for '<dtype>'. The kernel name defaults to the operator's name; ATen's
// own names (e.g. "arange_cpu") make the message read exactly as torch's.
[[noreturn]] void fail_not_implemented_for(const OpCall& c, DType dtype);
[[noreturn]] void fail_not_implemented_for(const OpCall& c, const std::string& kernel, DType dtype);

// Visits the C++ element type of `dtype`, instantiating the visitor only for
// the types in K (callers check_kinds first).
template <Kinds K, typename F>
decltype(auto) visit_kinds(DType dtype, F&& f) {
  if constexpr (K == Kinds::Floating) {
    return visit_floating_dtype(dtype, std::forward<F>(f));
  } else if constexpr (K == Kinds::Integral) {
    return visit_integral_dtype(dtype, std::forward<F>(f));
  } else {
    return visit_dtype(dtype, std::forward<F>(f));
  }
}

namespace detail {

// Work units (see parallel::min_items_for) one element of a map counts as.
constexpr int64_t kMapCostPerElement = 4;

// out[i * out_step] = f(src[k][base[k + 1] + i * step[k + 1]]...) for i in
// [0, count). The common runs get loops with the steps known at compile
// time, which the compiler vectorizes: every operand contiguous, or (for two
// inputs) one of them a repeated value.
template <typename O, typename M, typename F, size_t N, typename Offsets, size_t... I>
void map_run(F& f, O* out, int64_t out_step, const std::array<const M*, N>& src, const Offsets& base,
             const Offsets& step, int64_t count, std::index_sequence<I...>) {
  const std::array<const M*, N> at{(src[I] + base[I + 1])...};
  const bool contiguous = out_step == 1 && ((step[I + 1] == 1) && ...);
  if (contiguous) {
    for (int64_t i = 0; i < count; ++i) out[i] = convert_element<O>(f(at[I][i]...));
    return;
  }
  if constexpr (N == 2) {
    if (out_step == 1 && step[1] == 1 && step[2] == 0) {
      const M b = at[1][0];
      for (int64_t i = 0; i < count; ++i) out[i] = convert_element<O>(f(at[0][i], b));
      return;
    }
    if (out_step == 1 && step[1] == 0 && step[2] == 1) {
      const M a = at[0][0];
      for (int64_t i = 0; i < count; ++i) out[i] = convert_element<O>(f(a, at[1][i]));
      return;
    }
  }
  for (int64_t i = 0; i < count; ++i) out[i * out_step] = convert_element<O>(f(at[I][i * step[I + 1]]...));
}

}  // namespace detail

// The one broadcasting elementwise map of pt2web's operators:
// out = f(in0, in1, ...) elementwise. Every input must be a tensor of
// opmath_dtype(compute) (see kernel_input); f receives opmath values and its
// result is rounded into `compute`, or into bool when BoolOut.
//
// The strided walk (tensor/strided_loop.h) merges dims that are contiguous
// in every operand, so contiguous inputs run as one flat loop; large maps
// are split across threads (f must be safe to call concurrently: a pure
// function of its operands). Each element is computed as on one thread.
template <Kinds K, bool BoolOut, typename F, typename... In>
Tensor map_elements(DType compute, F&& f, const In&... inputs) {
  constexpr size_t N = sizeof...(In);
  std::array<const Tensor*, N> in{&inputs...};
  Shape shape;
  for (const Tensor* t : in) {
    PT2WEB_CHECK(t->dtype() == opmath_dtype(compute), "map_elements: input of dtype ", dtype_name(t->dtype()),
                 " for compute dtype ", dtype_name(compute));
    shape = broadcast_shapes(shape, t->sizes());
  }
  Tensor out = Tensor::empty(BoolOut ? DType::Bool : compute, shape);
  visit_kinds<K>(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    using O = std::conditional_t<BoolOut, bool, T>;
    std::array<const M*, N> src;
    for (size_t k = 0; k < N; ++k) src[k] = in[k]->template data<M>();
    O* dst = out.data<O>();
    std::array<Shape, N + 1> strides;
    strides[0] = out.strides();
    for (size_t k = 0; k < N; ++k) strides[k + 1] = broadcast_strides(*in[k], shape);
    std::array<const Shape*, N + 1> stride_ptrs;
    for (size_t k = 0; k <= N; ++k) stride_ptrs[k] = &strides[k];
    parallel::parallel_for(
        out.numel(), 16, parallel::min_items_for(detail::kMapCostPerElement),
        [&](int64_t begin, int64_t end) {
          for_each_run<N + 1>(shape, stride_ptrs, begin, end, [&](const auto& base, int64_t count, const auto& step) {
            detail::map_run<O, M>(f, dst + base[0], step[0], src, base, step, count,
                                  std::make_index_sequence<N>{});
          });
        },
        2);
  });
  return out;
}

// A one-input map with a vectorized float32 kernel (kernels/math), which
// must compute what f computes: `vectorized(in, out, n)` over n contiguous
// floats, in and out possibly the same array. For float32 inputs the kernel
// runs (on a contiguous copy of a strided input), and with `in_place` it
// writes straight into a contiguous input, which is then the result; any
// other dtype goes through map_elements with f (the caller writes an
// in-place result back itself, as for every other map).
template <Kinds K, typename F, typename V>
Tensor map_unary_vectorized(DType compute, F&& f, V&& vectorized, const Tensor& input, bool in_place = false) {
  if (compute == DType::Float32 && input.dtype() == DType::Float32) {
    const bool into_input = in_place && input.is_contiguous();
    Tensor src = input.is_contiguous() ? input : input.contiguous();
    Tensor out = into_input ? input : Tensor::empty(DType::Float32, input.sizes());
    vectorized(src.data<float>(), out.data<float>(), src.numel());
    return out;
  }
  return map_elements<K, false>(compute, std::forward<F>(f), kernel_input(operand(input), compute));
}

// The result of an in-place op (add_, clamp_, ...): checks that `value`'s dtype
// can be cast to self's (ATen's canCast) and that it has self's shape, then
// writes it into self's storage and returns self.
Tensor write_in_place(const OpCall& c, const Tensor& self, const Tensor& value);

// The result of an out= op: written into `out` when the shapes match (as
// write_in_place); otherwise, since pt2web tensors cannot be resized in
// place, `value` converted to out's dtype (after ATen's canCast check),
// which is what later nodes read through the op's result.
Tensor write_out(const OpCall& c, const Tensor& out, const Tensor& value);

// Pushes `value`, or writes it into argument 0 first for in-place variants
// (unless `value` is argument 0 itself, written in place by the kernel).
void push_result(OpCall& c, const Tensor& value, bool in_place);

// A Scalar argument as the kernel's opmath type M (integers wrap, as C++ casts do).
template <typename M>
inline M scalar_as(const Scalar& s) {
  return s.kind == Scalar::Kind::Double ? convert_element<M>(s.d) : convert_element<M>(s.i);
}

// Integer arithmetic that wraps around on overflow, as torch's kernels do in
// practice, without C++'s undefined behaviour for signed overflow. Bool
// behaves as logical or / and; floats are plain arithmetic.
template <typename M>
inline M wrapping_add(M a, M b) {
  if constexpr (std::is_same<M, bool>::value) return a || b;
  else if constexpr (std::is_integral<M>::value) {
    using U = std::make_unsigned_t<decltype(a + b)>;
    return static_cast<M>(static_cast<U>(a) + static_cast<U>(b));
  } else return a + b;
}
template <typename M>
inline M wrapping_sub(M a, M b) {
  if constexpr (std::is_same<M, bool>::value) return a != b;
  else if constexpr (std::is_integral<M>::value) {
    using U = std::make_unsigned_t<decltype(a - b)>;
    return static_cast<M>(static_cast<U>(a) - static_cast<U>(b));
  } else return a - b;
}
template <typename M>
inline M wrapping_mul(M a, M b) {
  if constexpr (std::is_same<M, bool>::value) return a && b;
  else if constexpr (std::is_integral<M>::value) {
    using U = std::make_unsigned_t<decltype(a * b)>;
    return static_cast<M>(static_cast<U>(a) * static_cast<U>(b));
  } else return a * b;
}

// Integer division and remainder with torch's error for a zero divisor; the
// one overflowing case (lowest / -1) wraps instead of trapping.
[[noreturn]] void fail_integer_division_by_zero();
template <typename M>
inline M int_div_trunc(M a, M b) {
  if (b == 0) fail_integer_division_by_zero();
  if constexpr (std::is_signed<M>::value) {
    if (b == -1) return wrapping_sub(M(0), a);
  }
  return static_cast<M>(a / b);
}
template <typename M>
inline M int_rem_trunc(M a, M b) {
  if (b == 0) fail_integer_division_by_zero();
  if constexpr (std::is_signed<M>::value) {
    if (b == -1) return M(0);
  }
  return static_cast<M>(a % b);
}

// clamp(self, min, max) with number bounds (either may be absent, not both);
// shared by clamp*, hardtanh, relu6 and relu. float32 runs the vectorized
// clamp, straight into self when `in_place` and self is contiguous.
Tensor clamp_scalars(const OpCall& c, const Tensor& self, std::optional<Scalar> lo, std::optional<Scalar> hi,
                     bool in_place = false);

// True for NaN (only floating types have one).
template <typename M>
inline bool is_nan(M v) {
  if constexpr (std::is_floating_point<M>::value) return std::isnan(v);
  else return false;
}

}  // namespace elementwise

}  // namespace pt2web
