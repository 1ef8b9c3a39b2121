#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "tensor/storage_size.h"
#include "util/error.h"

using namespace pt2web;

TEST_CASE("storage_bytes multiplies element count by element size") {
  CHECK(storage_bytes(0, DType::Float32) == 0);
  CHECK(storage_bytes(12, DType::Float32) == 48);
  CHECK(storage_bytes(5, DType::Float64) == 40);
}

TEST_CASE("storage_bytes refuses counts whose bytes do not fit size_t") {
  // The largest count that still fits, and one more (for the platform's size_t:
  // 2^30 float32 elements already overflow wasm32's 32-bit size_t).
  const int64_t fits = static_cast<int64_t>(
      std::min<uint64_t>((std::numeric_limits<size_t>::max() - 32) / 4, std::numeric_limits<int64_t>::max()));
  CHECK(storage_bytes(fits, DType::Float32) == static_cast<size_t>(fits) * 4);
  if (static_cast<uint64_t>(fits) < static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    try {
      storage_bytes(fits + 1, DType::Float32);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::Internal);
      CHECK_THAT(e.what(), Catch::Contains("out of memory"));
    }
  }
  CHECK_THROWS_AS(storage_bytes(std::numeric_limits<int64_t>::max(), DType::Float64), Error);
  CHECK_THROWS_AS(storage_bytes(-1, DType::Float32), Error);
}
