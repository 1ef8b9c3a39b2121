// Stage times (util/stage_times.h): timers record into the clock installed on
// the thread, summed by stage in the order stages first ended; nested
// recordings restore the outer clock; with no clock nothing is recorded.
#include <catch2/catch.hpp>

#include "util/stage_times.h"

using namespace pt2web;

TEST_CASE("stage timers add to the installed clock by stage", "[stage_times]") {
  StageClock clock;
  {
    StageRecording recording(clock);
    { StageTimer a("parse"); }
    { StageTimer b("plan"); }
    { StageTimer c("parse"); }
    clock.add("parse", 2.0);
  }
  REQUIRE(clock.stages().size() == 2);
  CHECK(clock.stages()[0].first == "parse");
  CHECK(clock.stages()[0].second >= 2.0);
  CHECK(clock.stages()[1].first == "plan");
  CHECK(clock.stages()[1].second >= 0.0);
}

TEST_CASE("without a clock timers record nothing; nested recordings restore the outer one", "[stage_times]") {
  CHECK(current_stage_clock() == nullptr);
  { StageTimer ignored("nowhere"); }
  StageClock outer, inner;
  {
    StageRecording a(outer);
    {
      StageRecording b(inner);
      CHECK(current_stage_clock() == &inner);
      StageTimer t("inner stage");
    }
    CHECK(current_stage_clock() == &outer);
    StageTimer t("outer stage");
  }
  CHECK(current_stage_clock() == nullptr);
  REQUIRE(inner.stages().size() == 1);
  CHECK(inner.stages()[0].first == "inner stage");
  REQUIRE(outer.stages().size() == 1);
  CHECK(outer.stages()[0].first == "outer stage");
}
