// saturating_cast<To>(from): converts a floating-point number to an integer
// type without undefined behaviour. NaN becomes 0, values past the type's
// range become its lowest or highest value, the rest truncate toward zero as
// static_cast does. C++ leaves out-of-range conversions undefined (wasm traps
// on them, UBSan reports them); torch gives implementation-defined values
// there, so pt2web picks the saturating ones.
//
// Header-only, no errors, no allocation.
#pragma once

#include <limits>
#include <type_traits>

namespace pt2web {

template <typename To, typename From>
To saturating_cast(From value) {
  static_assert(std::is_integral<To>::value && std::is_floating_point<From>::value,
                "saturating_cast converts floating point to integers");
  if (!(value == value)) return To(0);
  if (value <= static_cast<From>(std::numeric_limits<To>::lowest()))
    return std::numeric_limits<To>::lowest();
  if (value >= static_cast<From>(std::numeric_limits<To>::max()))
    return std::numeric_limits<To>::max();
  return static_cast<To>(value);
}

}  // namespace pt2web
