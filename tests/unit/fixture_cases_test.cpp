// Runs every case of every fixture program, in both dialects, and compares
// with the results real torch recorded (tests/fixtures/*/cases*.json).
#include <catch2/catch.hpp>

#include <dirent.h>

#include <algorithm>

#include "fixture_runner.h"

using namespace pt2web;

namespace {

std::vector<std::string> fixtures_with_cases() {
  std::vector<std::string> names;
  DIR* dir = opendir(PT2WEB_FIXTURES_DIR);
  REQUIRE(dir != nullptr);
  while (dirent* e = readdir(dir)) {
    std::string name = e->d_name;
    if (name[0] != '.' && name != "README.md") names.push_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

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
  auto names = fixtures_with_cases();
  REQUIRE(names.size() >= 19);
  for (const auto& name : names) {
    SECTION(name + " training") { check_fixture(name, false); }
    SECTION(name + " core") { check_fixture(name, true); }
  }
}
