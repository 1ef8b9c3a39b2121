#include "tensor/storage_size.h"

#include <limits>

#include "util/error.h"

namespace pt2web {

size_t storage_bytes(int64_t elements, DType dtype) {
  if (elements < 0) fail(ErrorCode::BadInput, "a storage of ", elements, " elements");
  constexpr size_t kLimit = std::numeric_limits<size_t>::max() - 32;  // allocate_heap pads by up to 31
  const size_t item = element_size(dtype);
  if (static_cast<uint64_t>(elements) > kLimit / item)
    fail(ErrorCode::Internal, "out of memory: ", elements, " elements of ", dtype_name(dtype),
         " need more bytes than this platform can address (", sizeof(size_t) * 8, "-bit)");
  return static_cast<size_t>(elements) * item;
}

}  // namespace pt2web
