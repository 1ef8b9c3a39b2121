// ops/reduction/gnu_order.h reproduces libstdc++'s std::sort,
// std::partial_sort and std::nth_element step for step, so that ties come
// out where torch (built with libstdc++) leaves them. Built with libstdc++
// (the native build), each is compared with the real algorithm on
// tie-heavy data; with any standard library, the results are checked to be
// sorted / selected. Torch's own orders are checked by the order_ties
// export fixture.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "ops/reduction/gnu_order.h"

namespace {

// Positions 0..n-1 of values drawn from `distinct` integers.
struct TiedLine {
  std::vector<int> values;
  std::vector<int64_t> positions;
  bool operator()(int64_t a, int64_t b) const { return values[a] < values[b]; }
};

TiedLine tied_line(std::mt19937& rng, size_t n, int distinct) {
  TiedLine line;
  std::uniform_int_distribution<int> pick(0, distinct - 1);
  for (size_t i = 0; i < n; ++i) line.values.push_back(pick(rng));
  line.positions.resize(n);
  std::iota(line.positions.begin(), line.positions.end(), int64_t(0));
  return line;
}

const std::vector<size_t> kSizes = {0, 1, 2, 3, 4, 15, 16, 17, 18, 33, 64, 65, 100, 257, 1000, 4099};

}  // namespace

TEST_CASE("gnu_order::sort orders like libstdc++'s std::sort, ties included", "[gnu_order]") {
  std::mt19937 rng(7);
  for (size_t n : kSizes) {
    for (int distinct : {1, 2, 3, 50, 100000}) {
      TiedLine line = tied_line(rng, n, distinct);
      std::vector<int64_t> ours = line.positions;
      pt2web::gnu_order::sort(ours.begin(), ours.end(), line);
      REQUIRE(std::is_sorted(ours.begin(), ours.end(), line));
#ifdef __GLIBCXX__
      std::vector<int64_t> theirs = line.positions;
      std::sort(theirs.begin(), theirs.end(), line);
      INFO("n " << n << ", distinct values " << distinct);
      REQUIRE(ours == theirs);
#endif
    }
  }
}

TEST_CASE("gnu_order::partial_sort and nth_element select like libstdc++", "[gnu_order]") {
  std::mt19937 rng(11);
  for (size_t n : kSizes) {
    if (n == 0) continue;
    for (int distinct : {1, 3, 1000}) {
      for (size_t k : {size_t(1), size_t(2), n / 3 + 1, n / 2 + 1, n}) {
        k = std::min(k, n);
        TiedLine line = tied_line(rng, n, distinct);
        INFO("n " << n << ", k " << k << ", distinct values " << distinct);
        std::vector<int64_t> partial = line.positions;
        pt2web::gnu_order::partial_sort(partial.begin(), partial.begin() + k, partial.end(), line);
        REQUIRE(std::is_sorted(partial.begin(), partial.begin() + k, line));
        std::vector<int64_t> nth = line.positions;
        pt2web::gnu_order::nth_element(nth.begin(), nth.begin() + (k - 1), nth.end(), line);
        for (size_t i = 0; i < n; ++i) {
          if (i < k - 1) REQUIRE_FALSE(line(nth[k - 1], nth[i]));
          if (i > k - 1) REQUIRE_FALSE(line(nth[i], nth[k - 1]));
        }
#ifdef __GLIBCXX__
        std::vector<int64_t> their_partial = line.positions;
        std::partial_sort(their_partial.begin(), their_partial.begin() + k, their_partial.end(), line);
        REQUIRE(partial == their_partial);
        std::vector<int64_t> their_nth = line.positions;
        std::nth_element(their_nth.begin(), their_nth.begin() + (k - 1), their_nth.end(), line);
        REQUIRE(nth == their_nth);
#endif
      }
    }
  }
}
