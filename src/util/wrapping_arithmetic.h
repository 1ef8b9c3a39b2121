// Integer arithmetic that wraps: torch's integer tensors wrap on overflow
// (int32 2^31 * 2 is -2^32 mod 2^32, as two's complement hardware gives), but
// in C++ signed overflow is undefined, and so is unsigned short arithmetic
// promoted to int. These compute in an unsigned type at least as wide as
// unsigned int, where overflow is defined, and convert back (modular since
// C++20, and so on every compiler pt2web supports). For floating-point T
// they are the plain operators.
//
// Header-only, no errors.
#pragma once

#include <type_traits>

namespace pt2web {

namespace wrapping_detail {
template <typename T>
using Unsigned = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
}  // namespace wrapping_detail

template <typename T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    using U = wrapping_detail::Unsigned<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename T>
T wrapping_sub(T a, T b) {
  if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    using U = wrapping_detail::Unsigned<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

template <typename T>
T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    using U = wrapping_detail::Unsigned<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

}  // namespace pt2web
