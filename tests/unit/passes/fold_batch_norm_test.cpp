// fold_batch_norm on every fixture's Core ATen program: the folded program
// verifies, still passes torch's cases.core.json, and has no inference batch
// norm left behind a foldable convolution (mobilenet_v2 has 52, all folded).
#include <catch2/catch.hpp>

#include <memory>

#include "cases.h"
#include "fixture_list.h"
#include "fixture_runner.h"
#include "io/pt2_loader.h"
#include "passes/fold_batch_norm.h"
#include "runtime/loaded_program.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

size_t count_nodes(const Graph& g, const std::string& target) {
  size_t n = 0;
  for (const Node& node : g.nodes) n += node.target == target;
  return n;
}

const char* const kBatchNorm = "torch.ops.aten._native_batch_norm_legit_no_training.default";

}  // namespace

TEST_CASE("fold_batch_norm keeps every fixture's results", "[passes][fixtures]") {
  for (const auto& name : testing::fixture_names(testing::fixtures_dir())) {
    std::string dir = testing::fixtures_dir() + "/" + name;
    if (!testing::file_exists(dir + "/model.core.pt2")) continue;
    SECTION(name) {
      auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + "/model.core.pt2"));
      ExportedProgram core = load_pt2(bytes, name);
      size_t before = count_nodes(core.graph, kBatchNorm);
      ExportedProgram folded = fold_batch_norm(core);
      verify_program(folded);
      size_t after = count_nodes(folded.graph, kBatchNorm);
      CHECK(after <= before);
      if (name == "mobilenet_v2") {
        CHECK(before > 0);
        CHECK(after == 0);
      }
      // Folding twice finds nothing more to fold.
      CHECK(count_nodes(fold_batch_norm(folded).graph, kBatchNorm) == after);
      LoadedProgram program(std::move(folded));
      for (const auto& c : testing::run_cases(program, dir + "/cases.core.json")) {
        INFO(name << " case " << c.name << ": " << c.detail);
        CHECK(c.passed);
      }
    }
  }
}
