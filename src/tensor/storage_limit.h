// A ceiling on the bytes of any one storage, below what the platform can
// address. Unset (the default), the only ceiling is size_t's. The program
// fuzzer sets one so that a schema-valid but enormous size ([2^31] float32
// zeros) is refused as out of memory instead of reserving gigabytes; an
// embedder can set one as a memory budget per tensor.
//
// Ownership: process-wide, read by storage_bytes (tensor/storage_size.h).
// Errors: none here; storage_bytes raises Error(OutOfMemory) naming the
// bytes asked for and the limit.
#pragma once

#include <cstddef>

namespace pt2web {

// 0 means no limit beyond size_t.
void set_storage_byte_limit(size_t bytes);
size_t storage_byte_limit();

}  // namespace pt2web
