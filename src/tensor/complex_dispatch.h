// Complex element types (complex64 as std::complex<float>, complex128 as
// std::complex<double>) for templated code that handles them, kept apart from
// dispatch.h so the many real-only kernels are not instantiated for complex.
//
//   visit_any_dtype(t.dtype(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
//
// Errors: Error(Unsupported) for a dtype outside the visited set.
#pragma once

#include <complex>
#include <type_traits>

#include "tensor/dispatch.h"

namespace pt2web {

template <typename T>
struct IsComplexType : std::false_type {};
template <typename V>
struct IsComplexType<std::complex<V>> : std::true_type {};
template <typename T>
constexpr bool is_complex_type_v = IsComplexType<T>::value;

// complex64 and complex128 only.
template <typename F>
decltype(auto) visit_complex_dtype(DType dtype, F&& f, const char* what = "this complex operation") {
  switch (dtype) {
    case DType::Complex64: return f(TypeTag<std::complex<float>>{});
    case DType::Complex128: return f(TypeTag<std::complex<double>>{});
    default: fail_unsupported_dtype(dtype, what);
  }
}

// Every element type: the real types of visit_dtype plus the complex ones.
template <typename F>
decltype(auto) visit_any_dtype(DType dtype, F&& f) {
  if (is_complex(dtype)) return visit_complex_dtype(dtype, std::forward<F>(f));
  return visit_dtype(dtype, std::forward<F>(f));
}

// convert_element extended to complex the way torch casts: complex -> real
// keeps the real part, complex -> bool is true when either part is nonzero,
// real -> complex has a zero imaginary part.
template <typename To, typename From>
inline To convert_any(From value) {
  if constexpr (std::is_same<To, From>::value) {
    return value;
  } else if constexpr (is_complex_type_v<From> && std::is_same<To, bool>::value) {
    return value.real() != 0 || value.imag() != 0;
  } else if constexpr (is_complex_type_v<From> && is_complex_type_v<To>) {
    using V = typename To::value_type;
    return To(static_cast<V>(value.real()), static_cast<V>(value.imag()));
  } else if constexpr (is_complex_type_v<From>) {
    return convert_element<To>(value.real());
  } else if constexpr (is_complex_type_v<To>) {
    using V = typename To::value_type;
    return To(convert_element<V>(value), V(0));
  } else {
    return convert_element<To>(value);
  }
}

}  // namespace pt2web
