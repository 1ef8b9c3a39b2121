// fold_constants on every fixture, in both dialects: the folded program
// verifies, still passes torch's cases, survives save -> load, and a second
// fold finds nothing more. Programs that compute from their state alone
// (positional tables, masks, weight arithmetic) lose those nodes.
#include <catch2/catch.hpp>

#include <memory>

#include "cases.h"
#include "fixture_list.h"
#include "fixture_runner.h"
#include "io/pt2_loader.h"
#include "io/pt2_writer.h"
#include "runtime/fold_constants.h"
#include "runtime/loaded_program.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

void check_cases(const ExportedProgram& p, const std::string& cases, const std::string& label) {
  LoadedProgram program{ExportedProgram(p)};
  auto results = testing::run_cases(program, cases);
  REQUIRE_FALSE(results.empty());
  for (const auto& c : results) {
    INFO(label << " case " << c.name << ": " << c.detail);
    CHECK(c.passed);
  }
}

}  // namespace

TEST_CASE("fold_constants keeps every fixture's results", "[runtime][fixtures][fold]") {
  size_t programs_folded = 0;
  for (const auto& name : testing::fixture_names(testing::fixtures_dir())) {
    std::string dir = testing::fixtures_dir() + "/" + name;
    for (const auto& [archive, cases] : {std::pair<std::string, std::string>{"model.pt2", "cases.json"},
                                         {"model.core.pt2", "cases.core.json"}}) {
      if (!testing::file_exists(dir + "/" + archive)) continue;
      std::string label = name + "/" + archive;
      INFO(label);
      auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + "/" + archive));
      ExportedProgram program = load_pt2(bytes, name);
      FoldConstantsResult folded = fold_constants(program);
      verify_program(folded.program);
      CHECK(folded.program.graph.nodes.size() == program.graph.nodes.size() - folded.folded_nodes);
      programs_folded += folded.folded_nodes > 0;
      CHECK(fold_constants(folded.program).folded_nodes == 0);
      check_cases(folded.program, dir + "/" + cases, label);
      if (folded.new_constants > 0) {
        auto saved = std::make_shared<const std::vector<uint8_t>>(save_pt2(folded.program));
        check_cases(load_pt2(saved, name), dir + "/" + cases, label + " saved and loaded");
      }
    }
  }
  // Several fixtures compute tables or masks from constants (tiny_transformer's
  // positions, shape_zoo's aranges): folding that finds nothing is broken.
  CHECK(programs_folded >= 2);
}
