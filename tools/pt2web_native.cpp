// pt2web_native: a native development driver. It enters pt2web the way
// JavaScript does, through runtime/loaded_program.h (transformations through
// passes/ and io/'s writer).
//   pt2web_native check DIR [--core] [--threads N]   runs a fixture folder's cases like the npm CLI's check
//   pt2web_native info MODEL.pt2 [--model NAME]      prints the program's description (JSON)
//   pt2web_native print MODEL.pt2 [--model NAME]     prints the program (NAME: a model of a PT2 archive)
//   pt2web_native decompose IN.pt2 OUT.pt2 [--preserve op,...]
//                                                    run_decompositions() to Core ATen, saved as a .pt2
//   pt2web_native save IN.pt2 OUT.pt2                loads and saves again (pt2web's writer, torch 2.6 layout)
//   pt2web_native fold IN.pt2 OUT.pt2                batch norms folded into convolutions, then constants
//                                                    folded (passes/fold_batch_norm.h, runtime/fold_constants.h)
//   pt2web_native bench DIR [--core] [--runs N] [--profile]
//                                                    times the first case of a fixture folder (median of N
//                                                    runs after two warm-ups) and prints the memory one run
//                                                    needs: the planned arena and the state the program reads;
//                                                    --profile adds one timed run's time per operator
//   pt2web_native loadtime DIR [--core] [--repeat N]
//                                                    where loading the fixture folder's program and its first two
//                                                    runs (first case) spend their time, by stage
//                                                    (util/stage_times.h), median of N fresh loads (default 5)
//   pt2web_native ops [--core FILE [--supported | --extra]]
//                                                    the operators pt2web registers, one a line; with --core
//                                                    (docs/core_aten_ops.txt) "N of M Core ATen overloads
//                                                    supported" and the missing ones, or the supported ones,
//                                                    or the registered ones outside the list
//   pt2web_native conform [--dialect training|core|both] [--list FILE] PATH...
//                                                    checks many corpus folders (a PATH is a program folder or
//                                                    a folder of them; FILE lists folders one a line) and prints
//                                                    one line per (folder, dialect), see conformance_check.h,
//                                                    followed by "  case ..." lines for failing folders
#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "cases.h"
#include "conformance_check.h"
#include "fixture_runner.h"
#include "io/pt2_loader.h"
#include "io/pt2_writer.h"
#include "ops/registry.h"
#include "passes/fold_batch_norm.h"
#include "passes/run_decompositions.h"
#include "runtime/fold_constants.h"
#include "runtime/loaded_program.h"
#include "util/error.h"
#include "util/stage_times.h"

using namespace pt2web;

namespace {

int check(const std::string& dir, bool core, int threads) {
  testing::FixtureResult result = testing::run_fixture(dir, core, threads);
  if (!result.loaded) std::cout << "load failed: " << result.load_error << "\n";
  for (const auto& c : result.cases) std::cout << c.name << "  " << (c.passed ? "PASS " : "FAIL ") << c.detail << "\n";
  std::cout << result.passed() << " passed, " << result.failed() << " failed\n";
  return result.failed() ? 1 : 0;
}

// The description of the archive at `path`, printed program included;
// `model`: which model of a PT2 archive holding several ("" for the default).
nlohmann::json describe_file(const std::string& path, const std::string& model = "") {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
  return inspect_archive(bytes, path, {/*printed=*/true}, model);
}

// The value of "--model NAME" after argv[3], or "" when absent.
std::string model_option(int argc, char** argv) {
  return argc == 5 && std::string(argv[3]) == "--model" ? argv[4] : "";
}

int usage() {
  std::cerr << "usage: pt2web_native check DIR [--core] [--threads N] | info MODEL.pt2 [--model NAME] | print MODEL.pt2 [--model NAME] |\n"
               "       decompose IN.pt2 OUT.pt2 [--preserve op,...] | save IN.pt2 OUT.pt2 | fold IN.pt2 OUT.pt2 |\n"
               "       bench DIR [--core] [--runs N] [--profile] | loadtime DIR [--core] [--repeat N] |\n"
               "       conform [--dialect training|core|both] [--list FILE] PATH... |\n"
               "       ops [--core FILE [--supported | --extra]]\n";
  return 2;
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

// Bytes of the distinct storages behind the state tensors the signature reads.
size_t state_bytes(const LoadedProgram& loaded) {
  std::map<std::string, Tensor> current;
  for (auto& [name, t] : loaded.state_dict()) current[name] = t;
  std::set<const Storage*> seen;
  size_t total = 0;
  auto add = [&](const Tensor& t) {
    if (t.defined() && seen.insert(t.storage().get()).second) total += t.storage()->nbytes();
  };
  const ExportedProgram& program = loaded.program();
  for (const auto& spec : program.signature.input_specs) {
    if (spec.kind == InputKind::Parameter || spec.kind == InputKind::Buffer) {
      auto it = current.find(spec.target);
      if (it != current.end()) add(it->second);
    }
    if (spec.kind == InputKind::ConstantTensor) add(program.constants.at(spec.target).tensor);
  }
  return total;
}

int bench(const std::string& dir, bool core, int runs, bool profile) {
  const std::string model = dir + (core ? "/model.core.pt2" : "/model.pt2");
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(model));
  auto start = std::chrono::steady_clock::now();
  LoadedProgram program(bytes, model);
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const testing::Case c = testing::read_cases(dir + (core ? "/cases.core.json" : "/cases.json")).at(0);
  std::vector<double> times;
  for (int i = 0; i < runs + 2; ++i) {
    start = std::chrono::steady_clock::now();
    program.run(c.args, c.kwargs);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  times.erase(times.begin(), times.begin() + 2);
  std::sort(times.begin(), times.end());
  std::cout << model << "  case " << c.name << "\n  load " << load_ms << " ms, run median " << times[times.size() / 2]
            << " ms (min " << times.front() << ", max " << times.back() << ", " << runs << " runs)\n  arena "
            << program.memory().planned_bytes << " bytes, state read " << state_bytes(program) << " bytes, archive "
            << bytes->size() << " bytes\n";
  if (profile)
    for (const OperatorTime& t : program.run_profiled(c.args, c.kwargs).profile)
      std::cout << "  " << t.ms << " ms  " << t.calls << "x  " << t.target << "\n";
  return 0;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One fresh load and two runs: (stage, ms) in the order they ended.
std::vector<std::pair<std::string, double>> timed_load(const std::string& model, const testing::Case& c) {
  StageClock clock;
  StageRecording recording(clock);
  auto start = std::chrono::steady_clock::now();
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(model));
  clock.add("read file", ms_since(start));
  start = std::chrono::steady_clock::now();
  LoadedProgram program(bytes, model);
  clock.add("LOAD (total)", ms_since(start));
  start = std::chrono::steady_clock::now();
  program.run(c.args, c.kwargs);
  clock.add("FIRST RUN (total)", ms_since(start));
  start = std::chrono::steady_clock::now();
  program.run(c.args, c.kwargs);
  clock.add("SECOND RUN (total)", ms_since(start));
  return clock.stages();
}

int loadtime(const std::string& dir, bool core, int repeat) {
  const std::string model = dir + (core ? "/model.core.pt2" : "/model.pt2");
  const testing::Case c = testing::read_cases(dir + (core ? "/cases.core.json" : "/cases.json")).at(0);
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> times;
  for (int i = 0; i < repeat; ++i)
    for (const auto& [stage, ms] : timed_load(model, c)) {
      if (!times.count(stage)) order.push_back(stage);
      times[stage].push_back(ms);
    }
  std::cout << model << "  case " << c.name << ", median of " << repeat << " loads (ms; nested stages overlap)\n";
  for (const auto& stage : order) {
    std::vector<double>& t = times[stage];
    std::sort(t.begin(), t.end());
    std::cout << "  " << t[t.size() / 2] << "  " << stage << "\n";
  }
  return 0;
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

// The registered operators, or their coverage of the Core ATen list in `core_file`.
int ops(int argc, char** argv) {
  std::vector<std::string> registered = op_table().names();
  if (argc == 2) {
    for (const auto& n : registered) std::cout << n << "\n";
    return 0;
  }
  if (std::string(argv[2]) != "--core" || argc < 4 || argc > 5) return usage();
  std::ifstream in(argv[3]);
  if (!in) fail(ErrorCode::BadInput, "cannot read the Core ATen list '", argv[3], "'");
  std::set<std::string> core;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') core.insert(line);
  std::set<std::string> have(registered.begin(), registered.end());
  const std::string mode = argc == 5 ? argv[4] : "";
  if (mode == "--supported" || mode == "--extra") {
    const bool supported = mode == "--supported";
    for (const auto& n : supported ? core : have)
      if ((supported ? have : core).count(n) == supported) std::cout << n << "\n";
    return 0;
  }
  if (!mode.empty()) return usage();
  std::vector<std::string> missing;
  for (const auto& n : core)
    if (!have.count(n)) missing.push_back(n);
  std::cout << (core.size() - missing.size()) << " of " << core.size() << " Core ATen overloads supported\n";
  for (const auto& n : missing) std::cout << "  missing " << n << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "ops") return ops(argc, argv);
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
      std::cout << describe_file(argv[2], model_option(argc, argv)).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      return 0;
    }
    if (command == "print") {
      std::cout << describe_file(argv[2], model_option(argc, argv))["printed"].get<std::string>();
      return 0;
    }
    if (command == "decompose" && argc >= 4) return decompose(argc, argv);
    if (command == "save" && argc >= 4) return rewrite(argv, [](ExportedProgram p) { return p; });
    if (command == "fold" && argc == 4)
      return rewrite(argv, [](ExportedProgram p) {
        FoldConstantsResult r = fold_constants(fold_batch_norm(p));
        std::cout << "folded " << r.folded_nodes << " nodes into " << r.new_constants << " constants\n";
        return r.program;
      });
    if (command == "conform") return conform(argc, argv);
    if (command == "ops") return ops(argc, argv);
    if (command == "loadtime") {
      bool core = false;
      int repeat = 5;
      for (int i = 3; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "--core") core = true;
        else if (option == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else return usage();
      }
      return loadtime(argv[2], core, repeat);
    }
    if (command == "bench") {
      bool core = false;
      bool profile = false;
      int runs = 20;
      for (int i = 3; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "--core") core = true;
        else if (option == "--profile") profile = true;
        else if (option == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else return usage();
      }
      return bench(argv[2], core, runs, profile);
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return usage();
}
