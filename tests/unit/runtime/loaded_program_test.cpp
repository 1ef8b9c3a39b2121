// LoadedProgram, the one door into pt2web: a program runs on 2 threads with
// the same bits as on 1; the thread count is the program's own; the profile,
// memory stats, mutation analysis and description come from the core; random
// inputs are accepted by every fixture program; errors leave it usable;
// decomposed() and save() give programs that pass torch's cases.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "cases.h"
#include "fixture_list.h"
#include "fixture_runner.h"
#include "kernels/parallel/thread_pool.h"
#include "runtime/loaded_program.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

std::string fixture_dir(const std::string& name) { return testing::fixtures_dir() + "/" + name; }

std::unique_ptr<LoadedProgram> load_fixture(const std::string& name, bool core = false) {
  const std::string path = fixture_dir(name) + (core ? "/model.core.pt2" : "/model.pt2");
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
  return std::make_unique<LoadedProgram>(bytes, path);
}

// Follows a Python-style output path ("[0]['rest'][1]") into a returned value.
const PyValue* at_path(const PyValue& value, const std::string& path) {
  const PyValue* at = &value;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] != '[') return nullptr;
    const size_t close = path.find(']', i);
    if (close == std::string::npos) return nullptr;
    const std::string step = path.substr(i + 1, close - i - 1);
    if (!step.empty() && step.front() == '\'') {
      at = at->get(step.substr(1, step.size() - 2));
    } else {
      const size_t index = std::stoul(step);
      at = index < at->items.size() ? &at->items[index] : nullptr;
    }
    if (!at) return nullptr;
    i = close + 1;
  }
  return at;
}

}  // namespace

TEST_CASE("a program on 2 threads gives the same bits as on 1", "[loaded_program][threads]") {
  // Both are large enough for the parallel GEMM, convolution and attention paths.
  for (const std::string name : {"mobilenet_v2", "encoder_small"}) {
    for (bool core : {false, true}) {
      INFO(name << (core ? " (core)" : ""));
      testing::FixtureResult one = testing::run_fixture(fixture_dir(name), core, 1);
      testing::FixtureResult two = testing::run_fixture(fixture_dir(name), core, 2);
      REQUIRE(one.loaded);
      REQUIRE(two.loaded);
      REQUIRE(one.cases.size() == two.cases.size());
      for (size_t i = 0; i < one.cases.size(); ++i) {
        INFO("case " << one.cases[i].name << ": " << two.cases[i].detail);
        CHECK(two.cases[i].passed);
        CHECK(testing::compare(two.cases[i].output, one.cases[i].output, 0, 0, nullptr).empty());
      }
    }
  }
}

TEST_CASE("the thread count belongs to the program and to its runs only", "[loaded_program][threads]") {
  auto program = load_fixture("mlp");
  CHECK(program->threads() == 1);
  CHECK(program->set_threads(3) == (parallel::threads_supported() ? 3 : 1));
  CHECK_THROWS_AS(program->set_threads(0), Error);
  CHECK(program->threads() == (parallel::threads_supported() ? 3 : 1));
  auto cases = testing::read_cases(fixture_dir("mlp") + "/cases.json");
  program->run(cases.front().args, cases.front().kwargs);
  CHECK(parallel::thread_count() == 1);  // nothing left behind on the calling thread
}

TEST_CASE("a program allowed several threads settles on a count and keeps its results", "[loaded_program][threads]") {
  auto program = load_fixture("digits_cnn");
  program->set_threads(2);
  auto cases = testing::read_cases(fixture_dir("digits_cnn") + "/cases.json");
  const testing::Case& c = cases.front();
  const PyValue first = program->run(c.args, c.kwargs);
  for (int run = 0; run < ThreadChoice::kProbeRuns + 2; ++run)
    CHECK(testing::compare(program->run(c.args, c.kwargs), first, 0, 0, nullptr).empty());
  CHECK(program->thread_choice().settled());
  const int chosen = program->thread_choice().next();
  CHECK((chosen == 1 || chosen == program->threads()));
  // A new count starts a new comparison.
  program->set_threads(2);
  CHECK(program->thread_choice().settled() == !parallel::threads_supported());
}

TEST_CASE("run_profiled times every operator and returns the outputs", "[loaded_program]") {
  auto program = load_fixture("digits_cnn", true);
  auto cases = testing::read_cases(fixture_dir("digits_cnn") + "/cases.core.json");
  const testing::Case& c = cases.front();
  ProfiledRun run = program->run_profiled(c.args, c.kwargs);
  CHECK(testing::compare(run.outputs, c.expected, c.rtol, c.atol, nullptr).empty());
  REQUIRE_FALSE(run.profile.empty());
  int calls = 0;
  for (size_t i = 0; i < run.profile.size(); ++i) {
    calls += run.profile[i].calls;
    if (i > 0) CHECK(run.profile[i - 1].ms >= run.profile[i].ms);
  }
  CHECK(calls > 0);
  // The profiler is detached afterwards: a plain run still works.
  CHECK(testing::compare(program->run(c.args, c.kwargs), c.expected, c.rtol, c.atol, nullptr).empty());
}

TEST_CASE("input mutation is found in both dialects", "[loaded_program]") {
  CHECK(load_fixture("input_mutation")->may_mutate_inputs());
  CHECK(load_fixture("input_mutation", true)->may_mutate_inputs());
  CHECK_FALSE(load_fixture("mlp")->may_mutate_inputs());
  CHECK_FALSE(load_fixture("counter_buffer", true)->may_mutate_inputs());  // buffers are not inputs
}

TEST_CASE("the description names output paths and prints the program only on request", "[loaded_program]") {
  auto program = load_fixture("pytree_io");
  nlohmann::json d = program->describe();
  CHECK_FALSE(d.contains("printed"));
  CHECK(program->describe({/*printed=*/true})["printed"] == program->printed());
  // torch's out_spec: TreeSpec(tuple, None, [TreeSpec(dict, ['a', 'rest'], [*, TreeSpec(list, None,
  // [*, TreeSpec(tuple, None, [*, *])])]), *])
  std::vector<std::string> paths;
  for (const auto& output : d["outputs"]) paths.push_back(output["path"]);
  CHECK(paths == std::vector<std::string>{"[0]['a']", "[0]['rest'][0]", "[0]['rest'][1][0]",
                                          "[0]['rest'][1][1]", "[1]"});
  auto cases = testing::read_cases(fixture_dir("pytree_io") + "/cases.json");
  PyValue out = program->run(cases.front().args, cases.front().kwargs);
  for (const auto& path : paths) {
    INFO(path);
    const PyValue* leaf = at_path(out, path);
    REQUIRE(leaf);
    CHECK(leaf->kind == PyValue::Kind::Tensor);
  }
}

TEST_CASE("every output path of every fixture reaches a returned value", "[loaded_program]") {
  for (const auto& name : testing::fixture_names(testing::fixtures_dir())) {
    auto program = load_fixture(name);
    auto cases = testing::read_cases(fixture_dir(name) + "/cases.json");
    for (const auto& c : cases) {
      if (c.expects_error) continue;
      PyValue out = program->run(c.args, c.kwargs);
      // Kept in a variable: a range-for over describe()["outputs"] would read
      // the outputs of a temporary destroyed before the loop body runs.
      const nlohmann::json description = program->describe();
      for (const auto& output : description["outputs"]) {
        INFO(name << " output " << output["path"]);
        CHECK(at_path(out, output["path"].get<std::string>()) != nullptr);
      }
      break;
    }
  }
}

TEST_CASE("random inputs are accepted by every fixture program and repeat by seed", "[loaded_program]") {
  for (const auto& name : testing::fixture_names(testing::fixtures_dir())) {
    for (bool core : {false, true}) {
      INFO(name << (core ? " (core)" : ""));
      auto program = load_fixture(name, core);
      for (uint32_t seed : {1u, 2u}) {
        PyValue inputs = program->random_inputs(seed);
        REQUIRE(inputs.items.size() == 2);
        CHECK(testing::compare(program->random_inputs(seed), inputs, 0, 0, nullptr).empty());
        CHECK_NOTHROW(program->run(inputs.items[0], inputs.items[1]));  // may mutate `inputs`
      }
    }
  }
}

TEST_CASE("random sizes stay inside the ranges and prefer small values", "[loaded_program]") {
  auto program = load_fixture("sym_shapes");
  const auto& ranges = program->program().range_constraints;
  std::map<std::string, int> seen;
  for (uint32_t seed = 0; seed < 20; ++seed) {
    const PyValue inputs = program->random_inputs(seed);
    const Tensor& x = inputs.items[0].items[0].tensor;
    REQUIRE(x.dim() == 2);
    const int64_t low0 = ranges.at("s0").min_val.value_or(2), low1 = ranges.at("s1").min_val.value_or(2);
    CHECK(x.size(0) >= low0);
    CHECK(x.size(0) <= std::max<int64_t>(low0, 8));
    CHECK(x.size(1) >= low1);
    CHECK(x.size(1) <= std::max<int64_t>(low1, 8));
    seen[std::to_string(x.size(0)) + "x" + std::to_string(x.size(1))]++;
    for (int64_t i = 0; i < x.numel(); ++i) {
      CHECK(x.item_as_double(i) >= -1);
      CHECK(x.item_as_double(i) < 1);
    }
  }
  CHECK(seen.size() > 3);
}

TEST_CASE("a bad input leaves the program usable", "[loaded_program]") {
  auto program = load_fixture("mlp");
  auto cases = testing::read_cases(fixture_dir("mlp") + "/cases.json");
  CHECK_THROWS_AS(program->run(PyValue::tuple({}), PyValue::dict()), Error);
  for (const auto& c : cases)
    if (!c.expects_error) CHECK(testing::compare(program->run(c.args, c.kwargs), c.expected, c.rtol, c.atol, nullptr).empty());
}

namespace {

// Runs every case of a cases file on a program and checks torch's results
// (or, where torch raised, that the program refuses the inputs).
void check_cases(LoadedProgram& program, const std::string& cases_path) {
  for (const auto& c : testing::read_cases(cases_path)) {
    INFO(cases_path << " case " << c.name);
    if (c.expects_error) {
      CHECK_THROWS_AS(program.run(c.args, c.kwargs), Error);
      continue;
    }
    double max_error = 0;
    CHECK(testing::compare(program.run(c.args, c.kwargs), c.expected, c.rtol, c.atol, &max_error) == "");
  }
}

// The ATen overloads a program uses ("aten::linear.default").
std::vector<std::string> operator_targets(const LoadedProgram& program) {
  const nlohmann::json description = program.describe();
  std::vector<std::string> targets;
  for (const auto& op : description["operators"]) targets.push_back(op["qualified"]);
  return targets;
}

bool uses(const LoadedProgram& program, const std::string& target) {
  auto targets = operator_targets(program);
  return std::find(targets.begin(), targets.end(), target) != targets.end();
}

}  // namespace

TEST_CASE("decomposed() gives torch's ATen program, which save() writes and load reads back", "[loaded_program]") {
  auto program = load_fixture("mlp");
  REQUIRE(uses(*program, "aten::linear.default"));
  auto decomposed = program->decomposed();
  CHECK(decomposed->describe()["dialect"] == "ATEN");
  CHECK_FALSE(uses(*decomposed, "aten::linear.default"));
  check_cases(*decomposed, fixture_dir("mlp") + "/cases.core.json");

  auto saved = std::make_shared<const std::vector<uint8_t>>(decomposed->save());
  LoadedProgram reloaded(saved, "saved");
  CHECK(reloaded.describe()["dialect"] == "ATEN");
  CHECK(operator_targets(reloaded) == operator_targets(*decomposed));
  check_cases(reloaded, fixture_dir("mlp") + "/cases.core.json");
}

TEST_CASE("decomposed() keeps the operators it is told to preserve and refuses those it cannot", "[loaded_program]") {
  auto program = load_fixture("mlp");
  DecompositionOptions keep_linear;
  keep_linear.preserve = {"aten.linear.default"};
  auto decomposed = program->decomposed(keep_linear);
  CHECK(uses(*decomposed, "aten::linear.default"));
  check_cases(*decomposed, fixture_dir("mlp") + "/cases.core.json");

  DecompositionOptions bad;
  bad.preserve = {"aten.add_.Tensor"};
  CHECK_THROWS_MATCHES(program->decomposed(bad), Error,
                       Catch::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::BadInput; },
                                               "a BadInput error"));
  check_cases(*program, fixture_dir("mlp") + "/cases.json");  // the original is untouched
}
