#include "tensor/storage_size.h"

#include <atomic>
#include <limits>
#include <string>

#include "tensor/storage_limit.h"

#include "util/error.h"

namespace pt2web {

namespace {

constexpr size_t kSizeMax = std::numeric_limits<size_t>::max();
// The largest storage whose block fits size_t at any alignment.
constexpr size_t kLargestStorage = kSizeMax - kStorageTailBytes - (kMaxStorageAlignment - 1);

// Bytes as a whole number where they fit 64 bits (e.g. "4294967260"), else
// as elements times element size.
std::string byte_count(uint64_t count, uint64_t item) {
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, item, &bytes)) return std::to_string(count) + " x " + std::to_string(item);
  return std::to_string(bytes);
}

// "out of memory: <what> needs <need>, more than this 32-bit platform can address"
[[noreturn]] void too_big(const std::string& need, const std::string& what) {
  fail(ErrorCode::OutOfMemory, "out of memory: ", what, " needs ", need, ", more than this ", sizeof(size_t) * 8,
       "-bit platform can address");
}

std::atomic<size_t> byte_limit{0};

}  // namespace

void set_storage_byte_limit(size_t bytes) { byte_limit.store(bytes); }
size_t storage_byte_limit() { return byte_limit.load(); }

size_t storage_alignment(size_t nbytes) { return nbytes >= 1024 ? kMaxStorageAlignment : 16; }

size_t storage_block_bytes(size_t nbytes, size_t alignment) {
  if (nbytes > kLargestStorage)
    too_big(std::to_string(nbytes) + " bytes and " + std::to_string(kStorageTailBytes) + " spare", "a storage");
  return (nbytes + kStorageTailBytes + alignment - 1) / alignment * alignment;
}

size_t storage_bytes(int64_t elements, DType dtype) {
  if (elements < 0) fail(ErrorCode::BadInput, "a storage of ", elements, " elements");
  const size_t item = element_size(dtype);
  if (static_cast<uint64_t>(elements) > kLargestStorage / item)
    too_big(byte_count(static_cast<uint64_t>(elements), item) + " bytes",
            std::to_string(elements) + " elements of " + dtype_name(dtype));
  const size_t bytes = static_cast<size_t>(elements) * item;
  const size_t limit = byte_limit.load();
  if (limit != 0 && bytes > limit)
    fail(ErrorCode::OutOfMemory, "out of memory: ", elements, " elements of ", dtype_name(dtype), " need ", bytes,
         " bytes, more than the limit of ", limit, " bytes per tensor");
  return bytes;
}

size_t checked_byte_sum(size_t a, size_t b, const char* what) {
  if (a > kSizeMax - b) too_big(std::to_string(a) + " + " + std::to_string(b) + " bytes", what);
  return a + b;
}

}  // namespace pt2web
