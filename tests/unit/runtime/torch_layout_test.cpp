// Strides like torch's (runtime/torch_layout.h): the recorded dimension order
// of a value, the copy into it, which plan nodes must give torch's layout,
// and that the usual contiguous path copies nothing while the attention and
// permuted-elementwise programs of tests/fixtures-export copy where torch's
// layout differs from pt2web's.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "cases.h"
#include "fixture_list.h"
#include "fixture_runner.h"
#include "io/pt2_loader.h"
#include "runtime/plan/plan_set.h"
#include "runtime/plan/torch_layout_plan.h"
#include "runtime/torch_layout.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

SymInt concrete(int64_t v) {
  SymInt s;
  s.value = v;
  return s;
}

SymInt symbolic(const std::string& text, std::optional<int64_t> hint) {
  SymInt s;
  s.is_symbolic = true;
  s.expr = SymExpr::parse(text);
  s.hint = hint;
  return s;
}

TensorMeta meta(std::vector<SymInt> sizes, std::vector<SymInt> strides) {
  TensorMeta m;
  m.sizes = std::move(sizes);
  m.strides = std::move(strides);
  return m;
}

Tensor arange(const Shape& sizes) {
  Tensor t = Tensor::empty(DType::Float32, sizes);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

ExportedProgram load_export_fixture(const std::string& name, bool core) {
  const std::string path =
      testing::export_fixtures_dir() + "/" + name + (core ? "/model.core.pt2" : "/model.pt2");
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
  return load_pt2(bytes, name);
}

}  // namespace

TEST_CASE("the recorded dimension order of dense layouts", "[torch_layout]") {
  // Contiguous (2, 3, 4).
  auto c = recorded_dim_order(meta({concrete(2), concrete(3), concrete(4)}, {concrete(12), concrete(4), concrete(1)}));
  REQUIRE(c);
  CHECK(*c == std::vector<int>{0, 1, 2});
  // Attention's (B, H, T, D) = (2, 4, 5, 4) result in (B, T, H, D) storage.
  auto a = recorded_dim_order(meta({concrete(2), concrete(4), concrete(5), concrete(4)},
                                   {concrete(80), concrete(4), concrete(16), concrete(1)}));
  REQUIRE(a);
  CHECK(*a == std::vector<int>{0, 2, 1, 3});
  // Size-1 dimensions may carry any stride.
  auto one = recorded_dim_order(meta({concrete(3), concrete(1), concrete(2)}, {concrete(1), concrete(99), concrete(3)}));
  REQUIRE(one);
  CHECK(one->at(2) == 0);
  // Symbolic strides are ordered by torch's example values: (s0, 4) stored transposed.
  auto s = recorded_dim_order(meta({symbolic("s0", 5), concrete(4)}, {concrete(1), symbolic("s0", 5)}));
  REQUIRE(s);
  CHECK(*s == std::vector<int>{1, 0});
}

TEST_CASE("layouts that are not dense, or not known, have no order", "[torch_layout]") {
  // An expanded dimension (stride 0), a gap, overlapping strides, a symbol without an example value, no elements.
  CHECK_FALSE(recorded_dim_order(meta({concrete(3), concrete(4)}, {concrete(0), concrete(1)})));
  CHECK_FALSE(recorded_dim_order(meta({concrete(3), concrete(4)}, {concrete(8), concrete(1)})));
  CHECK_FALSE(recorded_dim_order(meta({concrete(3), concrete(4)}, {concrete(2), concrete(1)})));
  CHECK_FALSE(recorded_dim_order(meta({symbolic("s0", std::nullopt), concrete(4)}, {concrete(4), concrete(1)})));
  CHECK_FALSE(recorded_dim_order(meta({concrete(0), concrete(4)}, {concrete(4), concrete(1)})));
  CHECK_FALSE(recorded_dim_order(meta({concrete(3), concrete(4)}, {concrete(1)})));
}

TEST_CASE("a copy in a dimension order keeps every element", "[torch_layout]") {
  Tensor t = arange({2, 3, 4});
  CHECK(has_dim_order(t, {0, 1, 2}));
  CHECK_FALSE(has_dim_order(t, {0, 2, 1}));
  Tensor r = copy_in_dim_order(t, {0, 2, 1});
  CHECK(r.strides() == Shape{12, 1, 3});
  CHECK(has_dim_order(r, {0, 2, 1}));
  CHECK(r.storage() != t.storage());
  for (int64_t i = 0; i < t.numel(); ++i) CHECK(r.item_as_double(i) == t.item_as_double(i));
  // Its transpose(1, 2) is contiguous, as torch's would be.
  CHECK(r.as_strided({2, 4, 3}, {12, 3, 1}, 0).is_contiguous());
  // Dimensions of size 1 are free.
  Tensor u = arange({3, 1});
  CHECK(has_dim_order(u, {1, 0}));
}

TEST_CASE("a view of a value nothing writes may copy its input; as_strided and written values restride the producer",
          "[torch_layout]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    // y.transpose(1, 2).view(B, T, C) of attention's result: torch's transposed result is contiguous.
    ExportedProgram gpt2_program = load_export_fixture("stride_gpt2_sdpa", core);
    PlanSet gpt2_plans(gpt2_program.graph, {}, nullptr);
    const GraphPlan& gpt2 = gpt2_plans.root_plan();
    int inputs = 0, outputs = 0;
    for (const PreparedNode& node : gpt2.nodes)
      for (const TorchLayout& layout : node.torch_layouts) {
        CHECK(node.op->schema.name == "aten::view");
        (layout.input ? inputs : outputs) += 1;
      }
    CHECK(inputs > 0);
    CHECK(outputs == 0);
  }
  // as_strided(x.t() * 3, ...) reads the product's storage: the multiply's result must be torch's (1, 0) order.
  ExportedProgram strided_program = load_export_fixture("stride_as_strided", false);
  PlanSet strided_plans(strided_program.graph, {}, nullptr);
  const GraphPlan& strided = strided_plans.root_plan();
  bool mul_restrided = false;
  for (const PreparedNode& node : strided.nodes)
    if (node.op->schema.qualified_name() == "aten::mul.Tensor") {
      REQUIRE(node.torch_layouts.size() == 1);
      CHECK_FALSE(node.torch_layouts[0].input);
      CHECK(node.torch_layouts[0].order == std::vector<int>{1, 0});
      mul_restrided = true;
    }
  CHECK(mul_restrided);
  // add_ writes through transpose(mul).view(-1)[:3]: the multiply itself gets torch's layout, so the write lands in it.
  ExportedProgram written_program = load_export_fixture("stride_mutate_through_view", false);
  PlanSet written_plans(written_program.graph, {}, nullptr);
  const GraphPlan& written = written_plans.root_plan();
  for (const PreparedNode& node : written.nodes) {
    const std::string name = node.op->schema.qualified_name();
    if (name == "aten::mul.Tensor") CHECK(node.torch_layouts.size() == 1);
    if (name == "aten::view.default") CHECK(node.torch_layouts.empty());
  }
}

TEST_CASE("programs run on pt2web's own layouts copy nothing", "[torch_layout]") {
  // The benchmark models (tests/bench/models.mjs) and the transformer fixtures: every value a view reads
  // already has torch's layout.
  auto check_no_copies = [](const std::string& dir, const std::string& name, bool core) {
    INFO(name << (core ? " core" : " training"));
    uint64_t before = torch_layout_copies();
    testing::FixtureResult result = testing::run_fixture(dir + "/" + name, core);
    REQUIRE(result.loaded);
    CHECK(result.failed() == 0);
    CHECK(torch_layout_copies() == before);
  };
  for (const char* name : {"mlp", "mlp_dynamic", "digits_cnn", "tiny_transformer", "encoder_small", "mobilenet_v2",
                           "vision_zoo", "lstm_gru", "shape_zoo"})
    for (bool core : {false, true}) check_no_copies(testing::fixtures_dir(), name, core);
  // The int8 benchmark programs (their TRAINING dialect; tests/fixtures-int8/README.md).
  for (const char* name : {"q_mlp_dynamic", "q_encoder_small_dyn", "q_mobilenet_v2"})
    check_no_copies(testing::int8_fixtures_dir(), name, false);
}

TEST_CASE("views torch allowed after its own layouts run", "[torch_layout]") {
  // Each failed before with "view size is not compatible with input tensor's size and stride" (as_strided read
  // other elements; view_as_complex found no unit stride in the last dimension); every case must match torch and
  // at least one layout copy is made (view_as_complex's by running it again on a copy after it refused).
  struct Program {
    const char* name;
    bool core;
  };
  for (Program p : {Program{"stride_gpt2_sdpa", false}, Program{"stride_gpt2_sdpa_contiguous", false},
                    Program{"stride_elementwise_layouts", false}, Program{"stride_elementwise_layouts", true},
                    Program{"stride_as_strided", false}, Program{"stride_as_strided", true},
                    Program{"stride_mutate_through_view", false}, Program{"stride_mutate_through_view", true},
                    Program{"stride_view_as_complex", false}, Program{"stride_view_as_complex", true}}) {
    INFO(p.name << (p.core ? " core" : " training"));
    uint64_t before = torch_layout_copies();
    testing::FixtureResult result = testing::run_fixture(testing::export_fixtures_dir() + "/" + p.name, p.core);
    REQUIRE(result.loaded);
    for (const auto& c : result.cases) {
      INFO("case " << c.name << ": " << c.detail);
      CHECK(c.passed);
    }
    CHECK(torch_layout_copies() > before);
  }
}
