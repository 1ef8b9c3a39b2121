// Runs every case of every fixture program, in both dialects, and compares
// with the results real torch recorded (tests/fixtures/*/cases*.json and the
// PT2E int8 programs in tests/fixtures-int8/*/cases*.json).
#include <catch2/catch.hpp>

#include <algorithm>

#include "fixture_list.h"
#include "fixture_runner.h"

using namespace pt2web;

namespace {


void check_fixture(const std::string& dir, bool core) {
  testing::FixtureResult result = testing::run_fixture(dir, core);
  const std::string name = dir.substr(dir.rfind('/') + 1);
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
    const std::string dir = std::string(PT2WEB_FIXTURES_DIR) + "/" + name;
    SECTION(name + " training") { check_fixture(dir, false); }
    SECTION(name + " core") { check_fixture(dir, true); }
  }
}

TEST_CASE("every int8 fixture case matches torch", "[fixtures][cases][int8]") {
  auto names = testing::fixture_names(testing::int8_fixtures_dir());
  REQUIRE(names.size() >= 5);
  for (const auto& name : names) {
    const std::string dir = testing::int8_fixtures_dir() + "/" + name;
    for (bool core : {false, true}) {
      SECTION(name + (core ? " core" : " training")) {
        // tests/fixtures-int8/README.md says which dialects were left out, and why.
        if (testing::file_exists(dir + (core ? "/model.core.pt2" : "/model.pt2")))
          check_fixture(dir, core);
        else
          WARN(name << (core ? " core" : " training") << ": dialect not in the repository (see its README)");
      }
    }
  }
}
