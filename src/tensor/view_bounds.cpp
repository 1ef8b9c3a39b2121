#include "tensor/view_bounds.h"

#include <sstream>

namespace pt2web {

std::string view_bounds_problem(const Shape& sizes, const Shape& strides, int64_t offset,
                                uint64_t available_elements) {
  std::ostringstream out;
  std::string geometry = "tensor size " + shape_to_string(sizes) + " / stride " + shape_to_string(strides);
  if (sizes.size() != strides.size()) {
    out << geometry << " differ in rank";
    return out.str();
  }
  if (offset < 0) {
    out << "negative storage offset " << offset;
    return out.str();
  }
  bool empty = false;
  int64_t numel = 1;
  int64_t last = offset;  // index of the furthest element
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] < 0 || strides[d] < 0) return geometry + " has negative entries";
    if (sizes[d] == 0) empty = true;
    int64_t reach = 0;
    if (__builtin_mul_overflow(numel, sizes[d], &numel) ||
        (sizes[d] > 0 && (__builtin_mul_overflow(sizes[d] - 1, strides[d], &reach) ||
                          __builtin_add_overflow(last, reach, &last))))
      return geometry + " overflows int64";
  }
  uint64_t needed = empty ? static_cast<uint64_t>(offset) : static_cast<uint64_t>(last) + 1;
  if (needed <= available_elements) return "";
  out << "tensor of size " << shape_to_string(sizes) << ", stride " << shape_to_string(strides)
      << " and offset " << offset << " needs " << needed << " elements but the storage has "
      << available_elements;
  return out.str();
}

}  // namespace pt2web
