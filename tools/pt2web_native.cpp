// pt2web_native: a native development driver.
//   pt2web_native check DIR [--core]   runs a fixture folder's cases like the npm CLI's check
//   pt2web_native print MODEL.pt2      prints the program
//   pt2web_native decompose IN.pt2 OUT.pt2 [--preserve op,...]
//                                      run_decompositions() to Core ATen, saved as a .pt2
//   pt2web_native save IN.pt2 OUT.pt2  loads and saves again (pt2web's writer, torch 2.6 layout)
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>

#include "cases.h"
#include "fixture_runner.h"
#include "io/pt2_loader.h"
#include "io/pt2_writer.h"
#include "passes/run_decompositions.h"
#include "util/error.h"
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

// Loads argv[2], transforms it, writes argv[3].
int rewrite(char** argv, const std::function<ExportedProgram(ExportedProgram)>& transform) {
  try {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(argv[2]));
    ExportedProgram program = transform(load_pt2(bytes, argv[2]));
    std::vector<uint8_t> out = save_pt2(program);
    std::ofstream file(argv[3], std::ios::binary);
    file.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
    if (!file) {
      std::cerr << "cannot write " << argv[3] << "\n";
      return 1;
    }
    std::cout << "wrote " << argv[3] << " (" << out.size() << " bytes, " << program.graph.nodes.size() << " nodes)\n";
    return 0;
  } catch (const Error& e) {
    std::cerr << error_code_name(e.code()) << ": " << e.what() << "\n";
    return 1;
  }
}

int decompose(int argc, char** argv) {
  DecompositionOptions options;
  if ((argc - 4) % 2 != 0) {
    std::cerr << "--preserve needs a comma-separated list of operators\n";
    return 2;
  }
  for (int i = 4; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) != "--preserve") {
      std::cerr << "unknown option " << argv[i] << "\n";
      return 2;
    }
    std::stringstream list(argv[i + 1]);
    for (std::string op; std::getline(list, op, ',');)
      if (!op.empty()) options.preserve.push_back(op);
  }
  return rewrite(argv, [&](ExportedProgram p) { return run_decompositions(p, options); });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "check") return check(argv[2], argc > 3 && std::string(argv[3]) == "--core");
  if (argc >= 3 && std::string(argv[1]) == "print") {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(argv[2]));
    std::cout << print_program(load_pt2(bytes, argv[2]));
    return 0;
  }
  if (argc >= 4 && std::string(argv[1]) == "decompose") return decompose(argc, argv);
  if (argc >= 4 && std::string(argv[1]) == "save") return rewrite(argv, [](ExportedProgram p) { return p; });
  std::cerr << "usage: pt2web_native check DIR [--core] | print MODEL.pt2 | decompose IN.pt2 OUT.pt2 [--preserve op,...] | save IN.pt2 OUT.pt2\n";
  return 2;
}
