// A growable float buffer whose data starts on a cache line (64 bytes), for
// kernels' packed operands and scratch: a 16-byte SIMD load from a packed
// panel that is not line-aligned straddles two lines every fourth load.
//
// Ownership: owns its memory. Errors: std::bad_alloc from the allocator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pt2web {

class AlignedFloats {
 public:
  // Room for n floats, aligned; the contents are unspecified after a resize
  // that grows the buffer. Returns data().
  float* resize(size_t n) {
    if (n > capacity_) {
      storage_.resize(n + kLineFloats - 1);
      const auto address = reinterpret_cast<uintptr_t>(storage_.data());
      const uintptr_t line = kLineFloats * sizeof(float);
      data_ = reinterpret_cast<float*>((address + line - 1) / line * line);
      capacity_ = n;
    }
    return data_;
  }
  float* data() { return data_; }

 private:
  static constexpr size_t kLineFloats = 16;
  std::vector<float> storage_;
  float* data_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace pt2web
