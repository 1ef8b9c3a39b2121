// pt2web_native: a native development driver.
//   pt2web_native check DIR [--core]   runs a fixture folder's cases like the npm CLI's check
//   pt2web_native print MODEL.pt2      prints the program
//   pt2web_native bench DIR [--core] [--runs N]
//                                      times the first case of a fixture folder (median of N runs after
//                                      two warm-ups) and prints the memory one run needs: the planned
//                                      arena and the state (weights, buffers, constants) the program reads
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <set>

#include "cases.h"
#include "fixture_runner.h"
#include "io/pt2_loader.h"
#include "program/exported_program.h"
#include "runtime/session.h"

using namespace pt2web;

namespace {

int check(const std::string& dir, bool core) {
  testing::FixtureResult result = testing::run_fixture(dir, core);
  if (!result.loaded) std::cout << "load failed: " << result.load_error << "\n";
  for (const auto& c : result.cases) std::cout << c.name << "  " << (c.passed ? "PASS " : "FAIL ") << c.detail << "\n";
  std::cout << result.passed() << " passed, " << result.failed() << " failed\n";
  return result.failed() ? 1 : 0;
}

// Bytes of the distinct storages behind the state tensors the signature reads.
size_t state_bytes(const Session& session) {
  std::set<const Storage*> seen;
  size_t total = 0;
  auto add = [&](const Tensor& t) {
    if (t.defined() && seen.insert(t.storage().get()).second) total += t.storage()->nbytes();
  };
  const ExportedProgram& program = session.program();
  for (const auto& spec : program.signature.input_specs) {
    if (spec.kind == InputKind::Parameter) add(program.state_dict.at(spec.target));
    if (spec.kind == InputKind::Buffer) add(session.buffers().at(spec.target));
    if (spec.kind == InputKind::ConstantTensor) add(program.constants.at(spec.target).tensor);
  }
  return total;
}

int bench(const std::string& dir, bool core, int runs) {
  const std::string model = dir + (core ? "/model.core.pt2" : "/model.pt2");
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(model));
  auto start = std::chrono::steady_clock::now();
  auto session = load_session(bytes, model);
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const testing::Case c = testing::read_cases(dir + (core ? "/cases.core.json" : "/cases.json")).at(0);
  std::vector<double> times;
  for (int i = 0; i < runs + 2; ++i) {
    start = std::chrono::steady_clock::now();
    session->run(c.args, c.kwargs);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  times.erase(times.begin(), times.begin() + 2);
  std::sort(times.begin(), times.end());
  std::cout << model << "  case " << c.name << "\n  load " << load_ms << " ms, run median " << times[times.size() / 2]
            << " ms (min " << times.front() << ", max " << times.back() << ", " << runs << " runs)\n  arena "
            << session->planned_bytes() << " bytes, state read " << state_bytes(*session) << " bytes, archive "
            << bytes->size() << " bytes\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "check") return check(argv[2], argc > 3 && std::string(argv[3]) == "--core");
  if (argc >= 3 && std::string(argv[1]) == "print") {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(argv[2]));
    std::cout << print_program(load_pt2(bytes, argv[2]));
    return 0;
  }
  if (argc >= 3 && std::string(argv[1]) == "bench") {
    bool core = false;
    int runs = 20;
    for (int i = 3; i < argc; ++i) {
      if (std::string(argv[i]) == "--core") core = true;
      if (std::string(argv[i]) == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    }
    return bench(argv[2], core, runs);
  }
  std::cerr << "usage: pt2web_native check DIR [--core] | print MODEL.pt2 | bench DIR [--core] [--runs N]\n";
  return 2;
}
