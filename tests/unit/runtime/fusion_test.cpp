// Plan-time convolution fusion: MobileNetV2's conv -> batch norm -> relu6
// chains (both dialects) become pt2web::conv_bn_clamp nodes, nothing else
// is absorbed (vision_zoo's group norm and lone convolutions stay), and the
// fused programs still match torch (the fixture case tests run them).
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "cases.h"
#include "io/pt2_loader.h"
#include "runtime/plan/plan_set.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

struct Counts {
  int fused = 0, batch_norms = 0, clamps = 0, convolutions = 0;
};

Counts plan_counts(const std::string& fixture, bool core) {
  const std::string path = testing::fixtures_dir() + "/" + fixture + (core ? "/model.core.pt2" : "/model.pt2");
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
  ExportedProgram program = load_pt2(bytes, fixture);
  PlanSet plans(program.graph, {}, nullptr);
  const GraphPlan& plan = plans.root_plan();
  Counts counts;
  for (const PreparedNode& node : plan.nodes) {
    const std::string name = node.op->schema.qualified_name();
    if (name.rfind("aten::conv", 0) == 0) counts.convolutions += 1;
    if (name == "pt2web::conv_bn_clamp.default") counts.fused += 1;
    if (name.find("batch_norm") != std::string::npos) counts.batch_norms += 1;
    if (name.find("hardtanh") != std::string::npos || name.find("relu") != std::string::npos) counts.clamps += 1;
  }
  return counts;
}

}  // namespace

TEST_CASE("convolutions absorb the batch norm and clamp after them", "[fusion]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    Counts c = plan_counts("mobilenet_v2", core);
    // The graph has 52 convolutions, each followed by a batch norm, 35 of them by a relu6 (hardtanh).
    CHECK(c.fused == 52);
    CHECK(c.batch_norms == 0);
    CHECK(c.clamps == 0);
  }
}

TEST_CASE("only batch norms and clamps right after a convolution are fused", "[fusion]") {
  // vision_zoo: conv2d -> batch_norm -> relu and conv2d -> relu6 fuse; conv2d, conv2d -> group_norm,
  // conv_transpose2d and conv1d stay.
  Counts c = plan_counts("vision_zoo", false);
  CHECK(c.fused == 2);
  CHECK(c.batch_norms == 0);
  CHECK(c.clamps == 0);
  CHECK(c.convolutions == 4);
}
