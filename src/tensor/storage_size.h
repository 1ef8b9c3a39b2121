// The byte size of a new storage, checked before anything is allocated.
// Element counts are int64 but size_t is 32 bits in wasm32, so a count that
// fits int64 can still wrap to a small byte size there (2^30 float32 elements
// are 2^32 bytes, i.e. 0) and a kernel would then write far past what was
// allocated. Every place that sizes a storage from an element count goes
// through storage_bytes().
//
// Ownership: none. Errors: Error(Internal) "out of memory" (as for a failed
// allocation) when the bytes, plus the allocator's 32 spare bytes, do not fit
// size_t; Error(BadInput) for a negative count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensor/dtype.h"

namespace pt2web {

size_t storage_bytes(int64_t elements, DType dtype);

}  // namespace pt2web
