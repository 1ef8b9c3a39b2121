// The grouped-query attention rewrite (runtime/plan/grouped_attention_plan.h)
// on transformers' Llama decode step: the repeat_kv chains before every
// attention node are absorbed into it (the profile names them), and the
// program still matches torch on every recorded step, its static cache
// carried over from one case to the next.
#include <catch2/catch.hpp>

#include <string>

#include "fixture_runner.h"
#include "cases.h"
#include "runtime/loaded_program.h"
#include "test_data_dirs.h"

using namespace pt2web;

TEST_CASE("transformers' repeated key/value heads are read in place by the attention", "[plan][attention]") {
  const std::string dir = testing::transformers_fixtures_dir() + "/llama_decode";
  LoadedProgram program(std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + "/model.pt2")),
                        "llama_decode");
  const PyValue* inputs = program.example_inputs();
  REQUIRE(inputs != nullptr);
  const ProfiledRun run = program.run_profiled(inputs->items[0], inputs->items[1]);
  bool absorbed = false;
  for (const OperatorTime& entry : run.profile) {
    if (entry.target.find("scaled_dot_product_attention") != std::string::npos)
      absorbed = entry.target.find("+ unsqueeze + expand + reshape + unsqueeze + expand + reshape") != std::string::npos;
  }
  CHECK(absorbed);
  const testing::FixtureResult result = testing::run_fixture(dir, false);
  REQUIRE(result.loaded);
  for (const auto& c : result.cases) {
    INFO(c.name << ": " << c.detail);
    CHECK(c.passed);
  }
}
