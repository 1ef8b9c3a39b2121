// Load-time folding (runtime/load_time_folding.h): MobileNetV2's 52 batch
// norms are folded into their convolutions when the session is made (both
// dialects), narrow 1x1 convolutions get packed weights in place of the
// folded ones, the loaded program keeps them, buffers the program writes are
// left alone, a program with nothing to fold is not copied, and replacing a folded running
// statistic through set_buffer, or putting it back with reset_state, gives
// what a program loaded with that value gives. The fixture case tests check
// the folded programs against torch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "cases.h"
#include "io/pt2_loader.h"
#include "runtime/buffer_writes.h"
#include "runtime/load_time_folding.h"
#include "runtime/random_inputs.h"
#include "runtime/session.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

ExportedProgram load_fixture(const std::string& fixture, bool core) {
  const std::string path = testing::fixtures_dir() + "/" + fixture + (core ? "/model.core.pt2" : "/model.pt2");
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
  return load_pt2(bytes, fixture);
}

size_t batch_norms(const Graph& graph) {
  return static_cast<size_t>(std::count_if(graph.nodes.begin(), graph.nodes.end(), [](const Node& n) {
    return n.target.find("batch_norm") != std::string::npos;
  }));
}

// max |a - b| relative to max |b| (the fixture's random MobileNetV2 gives tiny logits).
double max_difference(const Tensor& a, const Tensor& b) {
  Tensor x = a.to(DType::Float64), y = b.to(DType::Float64);
  double worst = 0.0, scale = 0.0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    worst = std::max(worst, std::abs(x.data<double>()[i] - y.data<double>()[i]));
    scale = std::max(scale, std::abs(y.data<double>()[i]));
  }
  return scale > 0.0 ? worst / scale : worst;
}

}  // namespace

TEST_CASE("batch norms are folded into convolutions at load", "[load_time_folding]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    ExportedProgram program = load_fixture("mobilenet_v2", core);
    REQUIRE(batch_norms(program.graph) == 52);
    LoadTimeFolding folded = fold_at_load(program, {}, buffers_the_program_may_write(program));
    REQUIRE(folded.prepared);
    CHECK(&folded.program(program) == &*folded.prepared);
    CHECK(batch_norms(folded.prepared->graph) == 0);
    CHECK(folded.prepared->constants.size() == program.constants.size() + 2 * 52);
    CHECK(folded.folded_buffers.count("features.0.1.running_var") == 1);
    // The session shows the program as loaded.
    Session session(std::move(program));
    CHECK(batch_norms(session.program().graph) == 52);
  }
}

TEST_CASE("a program with nothing to fold or pack runs as loaded, without a copy", "[load_time_folding]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    ExportedProgram program = load_fixture("encoder_small", core);
    LoadTimeFolding folded = fold_at_load(program, {}, buffers_the_program_may_write(program));
    CHECK_FALSE(folded.prepared);
    CHECK(&folded.program(program) == &program);
    CHECK(folded.folded_buffers.empty());
  }
}

size_t count_target(const Graph& graph, const std::string& target) {
  return static_cast<size_t>(std::count_if(graph.nodes.begin(), graph.nodes.end(),
                                           [&](const Node& n) { return n.target == target; }));
}

TEST_CASE("narrow 1x1 convolutions get their weights packed at load", "[load_time_folding]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    ExportedProgram program = load_fixture("mobilenet_v2", core);
    LoadTimeFolding folded = fold_at_load(program, {}, buffers_the_program_may_write(program));
    REQUIRE(folded.prepared);
    // The 1x1 convolutions on 7x7 planes (N = 49): the projection 576 -> 160 after the
    // stride-2 block, three expansions 160 -> 960, three projections 960 -> 160 or 320,
    // and the last 320 -> 1280.
    const size_t packed = count_target(folded.prepared->graph, "torch.ops.pt2web.packed_pointwise_conv.default");
    CHECK(packed == 8);
    // Each packed weight replaced its folded copy: the constants count is unchanged and
    // every one of them is read.
    size_t packed_constants = 0;
    for (const auto& entry : folded.prepared->constants) packed_constants += entry.first.rfind("packed_", 0) == 0;
    CHECK(packed_constants == packed);
    CHECK(folded.prepared->constants.size() == program.constants.size() + 2 * 52);
    CHECK(folded.prepared->signature.input_specs.size() == program.signature.input_specs.size() + 2 * 52);
  }
}

TEST_CASE("buffers the program may write are not folded", "[load_time_folding]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    ExportedProgram program = load_fixture("mobilenet_v2", core);
    // As if the program wrote one running variance: its batch norm stays, the other 51 fold.
    LoadTimeFolding folded = fold_at_load(program, {}, {"features.0.1.running_var"});
    REQUIRE(folded.prepared);
    CHECK(batch_norms(folded.prepared->graph) == 1);
    CHECK(folded.folded_buffers.count("features.0.1.running_var") == 0);
  }
}

TEST_CASE("replacing a folded running statistic refolds", "[load_time_folding]") {
  const std::string buffer = "features.0.1.running_var";
  ExportedProgram program = load_fixture("mobilenet_v2", false);
  const PyValue inputs = random_inputs(program, 7);
  Tensor scaled = program.state_dict.at(buffer).to(DType::Float32, true);
  for (int64_t i = 0; i < scaled.numel(); ++i) scaled.data<float>()[i] *= 4.0f;
  ExportedProgram changed = program;
  changed.state_dict[buffer] = scaled;

  Session session(std::move(program));
  Session reference(std::move(changed));
  // Copies: a result may live in the session's arena, which the next run reuses.
  auto run = [&](Session& s) { return s.run(inputs.items[0], inputs.items[1]).tensor.to(DType::Float32, true); };
  const Tensor before = run(session);
  const Tensor expected = run(reference);
  REQUIRE(max_difference(before, expected) > 1e-2);

  session.set_buffer(buffer, scaled);
  CHECK(max_difference(run(session), expected) < 1e-6);
  session.reset_state();
  CHECK(max_difference(run(session), before) == 0.0);
}
