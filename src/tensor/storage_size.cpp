#include "tensor/storage_size.h"

#include <limits>

#include "util/error.h"

namespace pt2web {

namespace {

constexpr size_t kSizeMax = std::numeric_limits<size_t>::max();
// The largest storage whose block fits size_t at any alignment.
constexpr size_t kLargestStorage = kSizeMax - kStorageTailBytes - (kMaxStorageAlignment - 1);

[[noreturn]] void too_big(double bytes, const char* what) {
  fail(ErrorCode::OutOfMemory, "out of memory: ", what, " needs ", bytes, " bytes, more than this ",
       sizeof(size_t) * 8, "-bit platform can address");
}

}  // namespace

size_t storage_alignment(size_t nbytes) { return nbytes >= 1024 ? kMaxStorageAlignment : 16; }

size_t storage_block_bytes(size_t nbytes, size_t alignment) {
  if (nbytes > kLargestStorage) too_big(static_cast<double>(nbytes), "a storage");
  return (nbytes + kStorageTailBytes + alignment - 1) / alignment * alignment;
}

size_t storage_bytes(int64_t elements, DType dtype) {
  if (elements < 0) fail(ErrorCode::BadInput, "a storage of ", elements, " elements");
  const size_t item = element_size(dtype);
  if (static_cast<uint64_t>(elements) > kLargestStorage / item)
    too_big(static_cast<double>(elements) * static_cast<double>(item),
            (std::to_string(elements) + " elements of " + dtype_name(dtype)).c_str());
  return static_cast<size_t>(elements) * item;
}

size_t checked_byte_sum(size_t a, size_t b, const char* what) {
  if (a > kSizeMax - b) too_big(static_cast<double>(a) + static_cast<double>(b), what);
  return a + b;
}

}  // namespace pt2web
