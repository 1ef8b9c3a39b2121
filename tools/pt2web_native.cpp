// pt2web_native: a native development driver.
//   pt2web_native check DIR [--core]   runs a fixture folder's cases like the npm CLI's check
//   pt2web_native print MODEL.pt2      prints the program
#include <iostream>
#include <memory>

#include "cases.h"
#include "fixture_runner.h"
#include "io/pt2_loader.h"
#include "program/exported_program.h"

using namespace pt2web;

namespace {

int check(const std::string& dir, bool core) {
  testing::FixtureResult result = testing::run_fixture(dir, core);
  if (!result.loaded) std::cout << "load failed: " << result.load_error << "\n";
  for (const auto& c : result.cases) std::cout << c.name << "  " << (c.passed ? "PASS " : "FAIL ") << c.detail << "\n";
  std::cout << result.passed() << " passed, " << result.failed() << " failed\n";
  return result.failed() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "check") return check(argv[2], argc > 3 && std::string(argv[3]) == "--core");
  if (argc >= 3 && std::string(argv[1]) == "print") {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(argv[2]));
    std::cout << print_program(load_pt2(bytes, argv[2]));
    return 0;
  }
  std::cerr << "usage: pt2web_native check DIR [--core] | print MODEL.pt2\n";
  return 2;
}
