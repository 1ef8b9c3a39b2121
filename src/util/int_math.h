// Integer helpers whose intermediate values never leave int64, for size
// arithmetic on values a program chose (which may lie near int64's limits).
//
// Header-only, no errors: callers check their arguments' signs.
#pragma once

#include <cstdint>

namespace pt2web {

// ceil(a / b) for b > 0 and any a, without forming a + b - 1.
inline int64_t ceil_div(int64_t a, int64_t b) {
  const int64_t q = a / b;  // truncates toward zero: already the ceiling for a < 0
  return q + (a % b != 0 && a > 0 ? 1 : 0);
}

}  // namespace pt2web
