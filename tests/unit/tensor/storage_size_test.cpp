// The one definition of a storage's size and block (tensor/storage_size.h):
// counts and byte sizes up to the last that fits are accepted, one more is
// OutOfMemory, at the platform's own size_t (32 bits in wasm32), and every
// block a check accepts has room for the bytes and the spare tail.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "tensor/storage_size.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;

namespace {

constexpr size_t kSizeMax = std::numeric_limits<size_t>::max();

template <typename Body>
ErrorCode code_of(Body body) {
  try {
    body();
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::Contains("out of memory") || Catch::Contains("elements"));
    return e.code();
  }
  FAIL("no error");
  return ErrorCode::Internal;
}

}  // namespace

TEST_CASE("storage_bytes multiplies element count by element size", "[storage_size]") {
  CHECK(storage_bytes(0, DType::Float32) == 0);
  CHECK(storage_bytes(12, DType::Float32) == 48);
  CHECK(storage_bytes(5, DType::Float64) == 40);
  CHECK(code_of([] { storage_bytes(-1, DType::Float32); }) == ErrorCode::BadInput);
}

TEST_CASE("a block holds the bytes and the spare tail, aligned, or is refused", "[storage_size]") {
  for (size_t alignment : {size_t{16}, kMaxStorageAlignment}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{1000}, size_t{1024}, size_t{4097}}) {
      const size_t block = storage_block_bytes(n, alignment);
      CHECK(block % alignment == 0);
      CHECK(block >= n + kStorageTailBytes);
      CHECK(block < n + kStorageTailBytes + alignment);
    }
  }
  CHECK(storage_alignment(1023) == 16);
  CHECK(storage_alignment(1024) == kMaxStorageAlignment);
  // The largest storage whose block fits size_t at every alignment, and the
  // bytes just past it (these wrapped to a tiny block before: a write trap).
  const size_t largest = kSizeMax - kStorageTailBytes - (kMaxStorageAlignment - 1);
  const size_t block = storage_block_bytes(largest, kMaxStorageAlignment);
  CHECK(block >= largest);
  CHECK(block - largest >= kStorageTailBytes);
  for (size_t past : {largest + 1, kSizeMax - 40, kSizeMax - 32, kSizeMax})
    CHECK(code_of([&] { storage_block_bytes(past, kMaxStorageAlignment); }) == ErrorCode::OutOfMemory);
}

TEST_CASE("storage_bytes refuses counts whose block does not fit size_t", "[storage_size]") {
  const size_t largest = kSizeMax - kStorageTailBytes - (kMaxStorageAlignment - 1);
  for (DType dtype : {DType::UInt8, DType::Float32, DType::Float64}) {
    const uint64_t item = element_size(dtype);
    const uint64_t fits = std::min<uint64_t>(largest / item, std::numeric_limits<int64_t>::max());
    CHECK(storage_bytes(static_cast<int64_t>(fits), dtype) == static_cast<size_t>(fits * item));
    storage_block_bytes(storage_bytes(static_cast<int64_t>(fits), dtype), kMaxStorageAlignment);  // no throw
    if (fits < static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      CHECK(code_of([&] { storage_bytes(static_cast<int64_t>(fits + 1), dtype); }) == ErrorCode::OutOfMemory);
  }
  CHECK(code_of([] { storage_bytes(std::numeric_limits<int64_t>::max(), DType::Float64); }) ==
        ErrorCode::OutOfMemory);
}

TEST_CASE("a storage just under the limit is refused before it is allocated", "[storage_size]") {
  // Bytes that passed the old check but wrapped once padded: 40 below size_t's end.
  CHECK(code_of([] { Storage::allocate_heap(kSizeMax - 40, false); }) == ErrorCode::OutOfMemory);
  // The largest bytes whose block fits: no heap can hold them (in wasm32 the
  // block is all 4 GiB of memory), so the allocation fails with its size named.
  const size_t largest = kSizeMax - kStorageTailBytes - (kMaxStorageAlignment - 1);
  CHECK(code_of([&] { Storage::allocate_heap(largest, false); }) == ErrorCode::OutOfMemory);
}

TEST_CASE("byte sums that do not fit size_t are refused", "[storage_size]") {
  CHECK(checked_byte_sum(2, 3, "x") == 5);
  CHECK(checked_byte_sum(kSizeMax - 1, 1, "x") == kSizeMax);
  CHECK(code_of([] { checked_byte_sum(kSizeMax, 1, "the arena"); }) == ErrorCode::OutOfMemory);
}
