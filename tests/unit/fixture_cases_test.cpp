// Runs every case of every fixture program, in both dialects, and compares
// with the results real torch recorded (tests/fixtures/*/cases*.json).
#include <catch2/catch.hpp>

#include <algorithm>

#include "fixture_list.h"
#include "fixture_runner.h"

using namespace pt2web;

namespace {


void check_fixture(const std::string& name, bool core) {
  testing::FixtureResult result = testing::run_fixture(std::string(PT2WEB_FIXTURES_DIR) + "/" + name, core);
  INFO(name << (core ? " (core)" : "") << ": " << result.load_error);
  REQUIRE(result.loaded);
  REQUIRE_FALSE(result.cases.empty());
  for (const auto& c : result.cases) {
    INFO("case " << c.name << ": " << c.detail);
    CHECK(c.passed);
  }
}

}  // namespace

TEST_CASE("every fixture case matches torch", "[fixtures][cases]") {
  auto names = testing::fixture_names(PT2WEB_FIXTURES_DIR);
  REQUIRE(names.size() >= 19);
  for (const auto& name : names) {
    SECTION(name + " training") { check_fixture(name, false); }
    SECTION(name + " core") { check_fixture(name, true); }
  }
}
