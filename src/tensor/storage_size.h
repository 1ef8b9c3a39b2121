// The byte size of a new storage and of the block that holds it, checked
// before anything is allocated. This is the one definition of a storage's
// spare bytes: the heap (Storage::allocate_heap), the activation arena's
// plan (runtime/memory_plan) and the size check all use it.
//
// A block holds the storage's bytes, then kStorageTailBytes spare bytes (so a
// SIMD kernel's 16-byte load of the last elements stays inside the block),
// rounded up to the block's alignment. Element counts are int64 but size_t is
// 32 bits in wasm32, so a count that fits int64 can still wrap to a small
// byte size there (2^30 float32 elements are 2^32 bytes, i.e. 0), and bytes
// just under the limit wrap once padded; both would let a kernel write far
// past what was allocated, so both are refused here.
//
// Ownership: none. Errors: Error(OutOfMemory) naming the bytes asked for
// when the bytes, or the block around them, do not fit size_t;
// Error(BadInput) for a negative count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensor/dtype.h"

namespace pt2web {

// Spare bytes after every storage's last byte, zero-filled.
constexpr size_t kStorageTailBytes = 16;
// The largest alignment a block gets (a cache line).
constexpr size_t kMaxStorageAlignment = 64;

// A heap block's alignment: 64 (a cache line) from a kilobyte up, so 16-byte
// loads of packed weights never straddle two lines; 16 below.
size_t storage_alignment(size_t nbytes);

// The block for `nbytes` at `alignment` (a power of two up to
// kMaxStorageAlignment): nbytes + kStorageTailBytes rounded up.
size_t storage_block_bytes(size_t nbytes, size_t alignment);

// elements * element_size(dtype), when its block at the largest alignment fits size_t.
size_t storage_bytes(int64_t elements, DType dtype);

// a + b, or Error(OutOfMemory) naming `what` when the sum does not fit size_t.
size_t checked_byte_sum(size_t a, size_t b, const char* what);

}  // namespace pt2web
