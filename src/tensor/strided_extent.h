// The elements a strided view reaches from its offset on: 1 + sum of
// (size - 1) * stride, or 0 when a size is 0. Sizes and strides come from
// programs (empty_strided, as_strided), so the sum is formed with overflow
// checks: nullopt when it passes int64.
//
// Header-only. Errors: none (callers name the operator in theirs); sizes and
// strides must be non-negative and of equal length (callers check first).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace pt2web {

inline std::optional<int64_t> strided_extent(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
  for (int64_t size : sizes)
    if (size == 0) return int64_t(0);
  int64_t extent = 1;
  for (size_t i = 0; i < sizes.size() && i < strides.size(); ++i) {
    int64_t reach = 0;
    if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &reach) || __builtin_add_overflow(extent, reach, &extent))
      return std::nullopt;
  }
  return extent;
}

}  // namespace pt2web
