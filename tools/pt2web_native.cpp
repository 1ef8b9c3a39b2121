// pt2web_native: a native development driver. It enters pt2web the way
// JavaScript does, through runtime/loaded_program.h.
//   pt2web_native check DIR [--core] [--threads N]   runs a fixture folder's cases like the npm CLI's check
//   pt2web_native info MODEL.pt2                     prints the program's description (JSON)
//   pt2web_native print MODEL.pt2                    prints the program
#include <iostream>
#include <memory>
#include <string>

#include "cases.h"
#include "fixture_runner.h"
#include "runtime/loaded_program.h"

using namespace pt2web;

namespace {

int check(const std::string& dir, bool core, int threads) {
  testing::FixtureResult result = testing::run_fixture(dir, core, threads);
  if (!result.loaded) std::cout << "load failed: " << result.load_error << "\n";
  for (const auto& c : result.cases) std::cout << c.name << "  " << (c.passed ? "PASS " : "FAIL ") << c.detail << "\n";
  std::cout << result.passed() << " passed, " << result.failed() << " failed\n";
  return result.failed() ? 1 : 0;
}

// The description of the archive at `path`, printed program included.
nlohmann::json describe_file(const std::string& path) {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
  return inspect_archive(bytes, path, {/*printed=*/true});
}

int usage() {
  std::cerr << "usage: pt2web_native check DIR [--core] [--threads N] | info MODEL.pt2 | print MODEL.pt2\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string command = argv[1];
  try {
    if (command == "check") {
      bool core = false;
      int threads = 1;
      for (int i = 3; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "--core") core = true;
        else if (option == "--threads" && i + 1 < argc) threads = std::stoi(argv[++i]);
        else return usage();
      }
      return check(argv[2], core, threads);
    }
    if (command == "info") {
      std::cout << describe_file(argv[2]).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      return 0;
    }
    if (command == "print") {
      std::cout << describe_file(argv[2])["printed"].get<std::string>();
      return 0;
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return usage();
}
