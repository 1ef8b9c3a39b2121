// pt2web_native: a native development driver.
//   pt2web_native check DIR [--core]   runs a fixture folder's cases like the npm CLI's check
//   pt2web_native print MODEL.pt2      prints the program
//   pt2web_native conform [--dialect training|core|both] [--list FILE] PATH...
//                                      checks many corpus folders (a PATH is a program folder or
//                                      a folder of them; FILE lists folders one a line) and prints
//                                      one line per (folder, dialect), see conformance_check.h,
//                                      followed by "  case ..." lines for failing folders
#include <fstream>
#include <iostream>
#include <memory>

#include "cases.h"
#include "conformance_check.h"
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

int conform(int argc, char** argv) {
  std::vector<testing::Dialect> dialects = {testing::Dialect::Training, testing::Dialect::Core};
  std::vector<std::string> folders;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--dialect" && i + 1 < argc) {
      std::string d = argv[++i];
      if (d == "training") dialects = {testing::Dialect::Training};
      else if (d == "core") dialects = {testing::Dialect::Core};
      else if (d != "both") {
        std::cerr << "conform: --dialect takes training, core or both, not '" << d << "'\n";
        return 2;
      }
    } else if (arg == "--list" && i + 1 < argc) {
      std::ifstream list(argv[++i]);
      if (!list) {
        std::cerr << "conform: cannot read " << argv[i] << "\n";
        return 2;
      }
      for (std::string line; std::getline(list, line);)
        if (!line.empty()) folders.push_back(line);
    } else {
      try {
        for (auto& f : testing::conformance_folders(arg)) folders.push_back(f);
      } catch (const std::exception& e) {
        std::cerr << "conform: " << e.what() << "\n";
        return 2;
      }
    }
  }
  int failed = 0, total = 0;
  for (const auto& folder : folders) {
    for (testing::Dialect dialect : dialects) {
      testing::ConformanceResult result = testing::check_conformance_folder(folder, dialect);
      std::cout << testing::format_result_line(result) << "\n";
      if (!result.passed)
        for (const auto& line : result.case_lines) std::cout << "  case " << line << "\n";
      std::cout.flush();
      failed += result.passed ? 0 : 1;
      ++total;
    }
  }
  std::cerr << (total - failed) << " of " << total << " passed\n";
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "check") return check(argv[2], argc > 3 && std::string(argv[3]) == "--core");
  if (argc >= 3 && std::string(argv[1]) == "print") {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(argv[2]));
    std::cout << print_program(load_pt2(bytes, argv[2]));
    return 0;
  }
  if (argc >= 3 && std::string(argv[1]) == "conform") return conform(argc, argv);
  std::cerr << "usage: pt2web_native check DIR [--core] | print MODEL.pt2 |\n"
               "       conform [--dialect training|core|both] [--list FILE] PATH...\n";
  return 2;
}
