// Maps a runtime DType to its C++ element type for templated kernels.
//
//   visit_dtype(t.dtype(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
//
// The visitor is instantiated for every supported element type, so it must
// compile for all of them; restrict with the narrower visitors below.
// Throws Error(Unsupported) for dtypes without an element type here.
#pragma once

#include <complex>
#include <limits>
#include <cstdint>
#include <type_traits>

#include "tensor/dtype.h"
#include "tensor/half.h"
#include "util/error.h"
#include "util/saturating_cast.h"

namespace pt2web {

template <typename T>
struct TypeTag {
  using type = T;
};

// float16 and bfloat16 compute in float; everything else in itself.
template <typename T>
struct OpMath {
  using type = T;
};
template <>
struct OpMath<Half> {
  using type = float;
};
template <>
struct OpMath<BFloat16> {
  using type = float;
};
template <typename T>
using opmath_t = typename OpMath<T>::type;

template <typename T>
constexpr bool is_floating_type_v =
    std::is_floating_point<T>::value || std::is_same<T, Half>::value ||
    std::is_same<T, BFloat16>::value;

[[noreturn]] void fail_unsupported_dtype(DType dtype, const char* what);

// Bool and the integer types only; `what` names the operation in the error
// for other types.
template <typename F>
decltype(auto) visit_integral_dtype(DType dtype, F&& f, const char* what = "this integer operation") {
  switch (dtype) {
    case DType::Bool: return f(TypeTag<bool>{});
    case DType::UInt8: return f(TypeTag<uint8_t>{});
    case DType::Int8: return f(TypeTag<int8_t>{});
    case DType::Int16: return f(TypeTag<int16_t>{});
    case DType::Int32: return f(TypeTag<int32_t>{});
    case DType::Int64: return f(TypeTag<int64_t>{});
    case DType::UInt16: return f(TypeTag<uint16_t>{});
    case DType::UInt32: return f(TypeTag<uint32_t>{});
    case DType::UInt64: return f(TypeTag<uint64_t>{});
    default: fail_unsupported_dtype(dtype, what);
  }
}

// Real numeric types: bool, integers, floats (no complex).
template <typename F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::Float16: return f(TypeTag<Half>{});
    case DType::BFloat16: return f(TypeTag<BFloat16>{});
    case DType::Float32: return f(TypeTag<float>{});
    case DType::Float64: return f(TypeTag<double>{});
    default: return visit_integral_dtype(dtype, std::forward<F>(f), "this operation");
  }
}

// Floating types only.
template <typename F>
decltype(auto) visit_floating_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::Float16: return f(TypeTag<Half>{});
    case DType::BFloat16: return f(TypeTag<BFloat16>{});
    case DType::Float32: return f(TypeTag<float>{});
    case DType::Float64: return f(TypeTag<double>{});
    default: fail_unsupported_dtype(dtype, "this floating-point operation");
  }
}

// Converts between element types the way a C++ static_cast would, going
// through float for the 16-bit float types.
template <typename To, typename From>
inline To convert_element(From value) {
  if constexpr (std::is_same<To, From>::value) {
    return value;
  } else if constexpr (std::is_same<To, bool>::value) {
    return static_cast<float>(value) != 0.0f || static_cast<double>(value) != 0.0;
  } else if constexpr (std::is_same<From, Half>::value || std::is_same<From, BFloat16>::value) {
    return convert_element<To>(static_cast<float>(value));
  } else if constexpr (std::is_same<To, Half>::value || std::is_same<To, BFloat16>::value) {
    return To(static_cast<float>(value));
  } else if constexpr (std::is_integral<To>::value && std::is_floating_point<From>::value) {
    return saturating_cast<To>(value);
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace pt2web
