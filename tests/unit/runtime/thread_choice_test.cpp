// ThreadChoice: the untimed first run, the N 1 1 N N 1 1 N probe order, the
// margin one thread must win by, what it settles on, and the later probes
// after holds that double.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "runtime/thread_choice.h"

using namespace pt2web;

namespace {

// Runs the probe to its end with runs taking `allowed_seconds` on the allowed
// count and `one_seconds` on one thread; returns the counts the runs used.
std::vector<int> probe(ThreadChoice& choice, double allowed_seconds, double one_seconds) {
  std::vector<int> used;
  while (!choice.settled()) {
    const int threads = choice.next();
    used.push_back(threads);
    choice.record(threads, threads == 1 ? one_seconds : allowed_seconds);
  }
  return used;
}

}  // namespace

TEST_CASE("one allowed thread is settled from the start", "[thread_choice]") {
  ThreadChoice choice(1);
  CHECK(choice.settled());
  CHECK(choice.next() == 1);
  choice.record(1, 0.5e-3);
  CHECK(choice.next() == 1);
  CHECK(ThreadChoice(0).allowed() == 1);
}

TEST_CASE("the first run is untimed, then the probe alternates in pairs", "[thread_choice]") {
  ThreadChoice choice(2);
  CHECK_FALSE(choice.settled());
  const std::vector<int> used = probe(choice, 1e-3, 2e-3);
  CHECK(used == std::vector<int>{2, 2, 1, 1, 2, 2, 1, 1, 2});
  CHECK(used.size() == ThreadChoice::kProbeRuns + 1);
}

TEST_CASE("the faster count wins, one thread only by the margin", "[thread_choice]") {
  SECTION("several threads faster") {
    ThreadChoice choice(4);
    probe(choice, 1e-3, 1.5e-3);
    CHECK(choice.next() == 4);
  }
  SECTION("one thread clearly faster") {
    ThreadChoice choice(2);
    probe(choice, 1e-3, 0.8e-3);
    CHECK(choice.next() == 1);
  }
  SECTION("one thread faster by less than the margin") {
    ThreadChoice choice(2);
    probe(choice, 1e-3, 0.97e-3);
    CHECK(choice.next() == 2);
  }
}

TEST_CASE("long runs keep the allowed count whatever the probe says", "[thread_choice]") {
  ThreadChoice choice(2);
  probe(choice, 0.020, 0.015);  // 20 ms runs: the probe measures the machine, not the split
  CHECK(choice.next() == 2);
}

TEST_CASE("the first run's time does not count", "[thread_choice]") {
  ThreadChoice choice(2);
  choice.record(2, 100.0);  // compiling and planning: slow on any count
  while (!choice.settled()) {
    const int threads = choice.next();
    choice.record(threads, threads == 1 ? 0.5e-3 : 1e-3);
  }
  CHECK(choice.next() == 1);
}

TEST_CASE("a run recorded with another count than asked for is ignored", "[thread_choice]") {
  ThreadChoice choice(2);
  choice.record(2, 1e-3);  // the untimed first run
  REQUIRE(choice.next() == 2);
  choice.record(1, 0.001);  // not what next() said: ignored
  CHECK(choice.next() == 2);
  const std::vector<int> used = probe(choice, 1e-3, 2e-3);
  CHECK(used.size() == ThreadChoice::kProbeRuns);
  CHECK(choice.next() == 2);
}

TEST_CASE("a later probe can change the choice, after holds that double", "[thread_choice]") {
  ThreadChoice choice(2);
  probe(choice, 1e-3, 0.5e-3);  // one thread looked faster (V8 still compiling, say)
  REQUIRE(choice.next() == 1);
  CHECK(choice.runs_until_probe() == ThreadChoice::kFirstHold);
  for (int run = 0; run < ThreadChoice::kFirstHold; ++run) {
    CHECK(choice.settled());
    CHECK(choice.next() == 1);
    choice.record(1, 0.5e-3);
  }
  CHECK_FALSE(choice.settled());  // the second probe has started
  probe(choice, 1e-3, 2e-3);
  CHECK(choice.next() == 2);
  CHECK(choice.runs_until_probe() == 2 * ThreadChoice::kFirstHold);
  int hold = 2 * ThreadChoice::kFirstHold;
  for (int round = 0; round < 10; ++round) {
    for (int run = 0; run < hold; ++run) choice.record(2, 1e-3);
    probe(choice, 1e-3, 2e-3);
    hold = std::min(2 * hold, ThreadChoice::kLongestHold);
    CHECK(choice.runs_until_probe() == hold);
  }
  CHECK(choice.runs_until_probe() == ThreadChoice::kLongestHold);
}
