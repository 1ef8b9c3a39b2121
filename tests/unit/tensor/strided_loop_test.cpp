// for_each_run: any range [begin, end) of the row-major order is walked as
// runs that cover exactly its elements, at the offsets an index-by-index
// computation gives, for contiguous, transposed, broadcast (stride 0) and
// size-1 dims; for_each_offsets (the whole range) agrees.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "tensor/strided_loop.h"

using namespace pt2web;

namespace {

// The offsets of element `flat` in row-major order, one per stride set.
std::array<int64_t, 2> offsets_of(int64_t flat, const Shape& sizes, const Shape& a, const Shape& b) {
  std::array<int64_t, 2> off{};
  for (size_t d = sizes.size(); d-- > 0;) {
    const int64_t i = flat % sizes[d];
    flat /= sizes[d];
    off[0] += i * a[d];
    off[1] += i * b[d];
  }
  return off;
}

void check_ranges(const Shape& sizes, const Shape& a, const Shape& b) {
  const int64_t total = shape_numel(sizes);
  const std::array<const Shape*, 2> strides{&a, &b};
  std::vector<std::array<int64_t, 2>> whole;
  for_each_offsets<2>(sizes, strides, [&](const std::array<int64_t, 2>& o) { whole.push_back(o); });
  REQUIRE(static_cast<int64_t>(whole.size()) == total);
  for (int64_t flat = 0; flat < total; ++flat) CHECK(whole[flat] == offsets_of(flat, sizes, a, b));
  for (int64_t begin = 0; begin <= total; begin += 3)
    for (int64_t end = begin; end <= total; end += 5) {
      int64_t next = begin;
      for_each_run<2>(sizes, strides, begin, end, [&](const auto& base, int64_t count, const auto& step) {
        CHECK(count >= 1);
        for (int64_t i = 0; i < count; ++i, ++next) {
          const std::array<int64_t, 2> at{base[0] + i * step[0], base[1] + i * step[1]};
          CHECK(at == offsets_of(next, sizes, a, b));
        }
      });
      CHECK(next == end);
    }
}

}  // namespace

TEST_CASE("for_each_run walks any range of the order", "[tensor][strided_loop]") {
  // Contiguous and a transposed view of a [3, 4, 5] array.
  check_ranges({3, 4, 5}, {20, 5, 1}, {1, 3, 12});
  // One operand broadcast along the last two dims (a [3, 1, 1] one), and a size-1 dim.
  check_ranges({3, 1, 4, 5}, {20, 20, 5, 1}, {1, 0, 0, 0});
  // Broadcast along the first dim only.
  check_ranges({4, 7}, {7, 1}, {0, 1});
  // A scalar shape: one element.
  check_ranges({}, {}, {});
}

TEST_CASE("for_each_run walks nothing for an empty shape", "[tensor][strided_loop]") {
  const Shape sizes{3, 0, 2}, strides{0, 2, 1};
  int runs = 0;
  for_each_run<1>(sizes, {&strides}, 0, 6, [&](const auto&, int64_t, const auto&) { ++runs; });
  CHECK(runs == 0);
}
