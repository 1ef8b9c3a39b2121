// The prepare pipeline (runtime/prepare_pipeline.h) runs its steps in the
// documented order and records them; describe() lists them ("prepare") and
// inspect, which prepares nothing, writes null; subgraphs are planned with
// the root; the PassManager (passes/pass_manager.h) verifies after a pass
// that changed the program and names a pass that broke it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cases.h"
#include "io/pt2_loader.h"
#include "passes/pass_manager.h"
#include "runtime/loaded_program.h"
#include "runtime/prepare_pipeline.h"
#include "test_data_dirs.h"
#include "util/error.h"

using namespace pt2web;

namespace {

std::vector<uint8_t> fixture_bytes(const std::string& fixture) {
  return testing::read_file(testing::fixtures_dir() + "/" + fixture + "/model.pt2");
}

ExportedProgram load_fixture(const std::string& fixture) {
  return load_pt2(std::make_shared<const std::vector<uint8_t>>(fixture_bytes(fixture)), fixture);
}

std::vector<std::string> step_names(const StepLog& log) {
  std::vector<std::string> names;
  for (const LoggedStep& step : log.steps()) names.push_back(step.name);
  return names;
}

const LoggedStep* find_step(const StepLog& log, const std::string& name) {
  for (const LoggedStep& step : log.steps())
    if (step.name == name) return &step;
  return nullptr;
}

}  // namespace

TEST_CASE("the prepare pipeline runs its steps in order and says what changed", "[prepare_pipeline]") {
  auto prepared = prepare_program(load_fixture("mobilenet_v2"));
  const std::vector<std::string> expected = {
      "verify", "lower vmap regions", "find written buffers", "copy the program for the graph passes",
      "fold batch norms", "pack pointwise weights", "bind nodes to kernels", "fuse int8 chains",
      "fuse convolution epilogues", "read grouped key/value heads in place", "plan torch layouts", "liveness"};
  CHECK(step_names(prepared->steps) == expected);
  CHECK(find_step(prepared->steps, "fold batch norms")->detail == "changed the program");
  CHECK(find_step(prepared->steps, "lower vmap regions")->detail.empty());
  for (const LoggedStep& step : prepared->steps.steps()) CHECK(step.milliseconds >= 0.0);
  // The plans run the folded program; the loaded one is kept as torch wrote it.
  REQUIRE(prepared->plans);
  CHECK(&prepared->plans->root() == &prepared->runs().graph);
  CHECK(&prepared->runs() != &prepared->loaded);
}

TEST_CASE("subgraphs are planned with the root, each plan step once in the log", "[prepare_pipeline]") {
  auto prepared = prepare_program(load_fixture("cond_branch"));
  const Graph& root = prepared->plans->root();
  size_t subgraphs = 0;
  for (const Node& node : root.nodes)
    for (const auto& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph) {
        CHECK(prepared->plans->find(*in.arg.graph) != nullptr);
        ++subgraphs;
      }
  CHECK(subgraphs >= 2);
  std::vector<std::string> names = step_names(prepared->steps);
  CHECK(std::count(names.begin(), names.end(), "bind nodes to kernels") == 1);
  // Nothing to fold: no pass changed the program, so the loaded one runs.
  CHECK(&prepared->runs() == &prepared->loaded);
}

TEST_CASE("describe lists the prepare steps; inspect prepares nothing", "[prepare_pipeline]") {
  std::vector<uint8_t> bytes = fixture_bytes("mlp");
  LoadedProgram program(std::make_shared<const std::vector<uint8_t>>(bytes), "mlp");
  nlohmann::json described = program.describe();
  REQUIRE(described["prepare"].is_array());
  CHECK(described["prepare"][0]["step"] == "verify");
  CHECK(described["prepare"].back()["step"] == "liveness");
  nlohmann::json inspected = inspect_archive(std::make_shared<const std::vector<uint8_t>>(bytes), "mlp");
  CHECK(inspected["prepare"].is_null());
}

TEST_CASE("the pass manager verifies after a pass that changed the program and names one that broke it",
          "[pass_manager]") {
  ExportedProgram program = load_fixture("mlp");
  StepLog log;
  int calls = 0;
  PassManager passes;
  passes.add("look only", [&](ExportedProgram&) { ++calls; return false; });
  passes.add("rename nothing", [&](ExportedProgram&) { ++calls; return true; });
  CHECK(passes.names() == std::vector<std::string>{"look only", "rename nothing"});
  CHECK(passes.run(program, &log));
  CHECK(calls == 2);
  CHECK(step_names(log) == std::vector<std::string>{"look only", "rename nothing"});
  CHECK(log.steps()[0].detail.empty());
  CHECK(log.steps()[1].detail == "changed the program");

  PassManager breaking;
  breaking.add("drop the outputs", [](ExportedProgram& p) {
    p.graph.outputs.clear();
    return true;
  });
  try {
    breaking.run(program);
    FAIL("a pass that broke the program was not caught");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Internal);
    CHECK(std::string(e.what()).find("pass 'drop the outputs'") != std::string::npos);
  }
  // A pass that says it changed nothing is not verified (the caller's word).
  PassManager silent;
  silent.add("break quietly", [](ExportedProgram& p) {
    p.graph.outputs.clear();
    return false;
  });
  CHECK_FALSE(silent.run(program));
}
