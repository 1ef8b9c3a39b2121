// PT2E int8 programs (tests/fixtures-int8): the plan runs every dequantize ->
// conv / linear -> quantize chain as an integer node, and loading leaves the
// unread float originals and the never-written int8 weight buffers in the
// archive's bytes. The fixture case tests check the results against torch.
#include <catch2/catch.hpp>

#include <memory>
#include <set>
#include <string>

#include "cases.h"
#include "fixture_list.h"
#include "io/pt2_loader.h"
#include "runtime/buffer_writes.h"
#include "runtime/plan/plan_set.h"
#include "runtime/operator_profile.h"
#include "runtime/session.h"
#include "tensor/alignment.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

std::string model_path(const std::string& fixture, bool core) {
  return testing::int8_fixtures_dir() + "/" + fixture + (core ? "/model.core.pt2" : "/model.pt2");
}

std::map<std::string, int> plan_op_counts(const std::string& fixture, bool core) {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(model_path(fixture, core)));
  ExportedProgram program = load_pt2(bytes, fixture);
  PlanSet plans(program.graph, {}, nullptr);
  const GraphPlan& plan = plans.root_plan();
  std::map<std::string, int> counts;
  for (const PreparedNode& node : plan.nodes) counts[node.op->schema.qualified_name()] += 1;
  return counts;
}

bool inside(const Tensor& t, const std::vector<uint8_t>& bytes) {
  const auto* p = static_cast<const uint8_t*>(t.raw_data());
  return p >= bytes.data() && p < bytes.data() + bytes.size();
}

}  // namespace

TEST_CASE("PT2E convolutions and linear layers run as integer nodes", "[fusion][int8]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    auto mobilenet = plan_op_counts("q_mobilenet_v2", core);
    CHECK(mobilenet["pt2web::quantized_conv2d.default"] == 52);
    CHECK(mobilenet["pt2web::quantized_linear.default"] == 1);
    CHECK(mobilenet["quantized_decomposed::dequantize_per_channel.default"] == 0);
    CHECK(mobilenet["aten::convolution.default"] + mobilenet["aten::conv2d.default"] == 0);
    CHECK(mobilenet["aten::hardtanh.default"] + mobilenet["aten::hardtanh_.default"] == 0);
    // the ten residual adds: dequantize, dequantize, add, quantize -> one integer node
    CHECK(mobilenet["pt2web::quantized_add.default"] == 10);
    CHECK(mobilenet["aten::add.Tensor"] == 0);
    auto digits = plan_op_counts("q_digits_cnn", core);
    CHECK(digits["pt2web::quantized_conv2d.default"] == 2);
    CHECK(digits["pt2web::quantized_linear.default"] == 1);
    CHECK(digits["aten::relu.default"] == 0);
  }
  // dynamic quantization: every linear of the encoder reads choose_qparams' int8 values
  auto encoder = plan_op_counts("q_encoder_small_dyn", false);
  CHECK(encoder["aten::linear.default"] == 0);
  CHECK(encoder["pt2web::quantized_linear.default"] > 0);
}

TEST_CASE("elementwise int8 chains become lookups, residual adds absorb their relu, gates multiply integers", "[fusion][int8]") {
  for (bool core : {false, true}) {
    INFO("core dialect: " << core);
    auto blocks = plan_op_counts("q_mobile_blocks", core);
    // three hardswish_ and the squeeze-excite's hardsigmoid, each between a dequantize and a quantize
    CHECK(blocks["pt2web::quantized_lookup.default"] == 4);
    CHECK(blocks["aten::hardswish_.default"] + blocks["aten::hardswish.default"] == 0);
    CHECK(blocks["aten::hardsigmoid.default"] == 0);
    // the inverted residual's add_ and the BasicBlock's add_ -> relu_
    CHECK(blocks["pt2web::quantized_add.default"] == 2);
    CHECK(blocks["aten::add_.Tensor"] + blocks["aten::add.Tensor"] == 0);
    CHECK(blocks["aten::relu_.default"] + blocks["aten::relu.default"] == 0);
    // the squeeze-excite gate times its input
    CHECK(blocks["pt2web::quantized_mul.default"] == 1);
    CHECK(blocks["aten::mul.Tensor"] == 0);
    CHECK(blocks["pt2web::quantized_conv2d.default"] == 8);
  }
  // the max pool reads the integers (its dequantize and quantize share parameters); Core ATen's
  // max_pool2d_with_indices stays float
  auto blocks = plan_op_counts("q_mobile_blocks", false);
  CHECK(blocks["aten::max_pool2d.default"] == 1);
  // left: the input's quantize, the output's dequantize, and dequantize -> op -> quantize around the
  // two average pools and the flatten (with the max pool's: five of each)
  CHECK(blocks["quantized_decomposed::quantize_per_tensor.default"] == 4);
  CHECK(blocks["quantized_decomposed::dequantize_per_tensor.default"] == 4);
}

TEST_CASE("the profile names the integer operator a rewritten node runs", "[fusion][int8]") {
  auto bytes =
      std::make_shared<const std::vector<uint8_t>>(testing::read_file(model_path("q_encoder_small_dyn", false)));
  ExportedProgram program = load_pt2(bytes, "q_encoder_small_dyn");
  PlanSet plans(program.graph, {}, nullptr);
  const GraphPlan& plan = plans.root_plan();
  OperatorProfile profile;
  for (const PreparedNode& node : plan.nodes) profile.node_finished(node, 1.0);
  // dynamic quantization absorbs nothing after the product: the node keeps aten.linear's target
  bool named = false;
  for (const OperatorTime& row : profile.slowest_first()) {
    named = named || row.target == "torch.ops.aten.linear.default (as pt2web::quantized_linear.default)";
    if (row.target.rfind("torch.ops.aten.layer_norm.default", 0) == 0) CHECK(row.target == "torch.ops.aten.layer_norm.default");
  }
  CHECK(named);
}

TEST_CASE("products whose int8 weight is a fixed input are marked weight_fixed", "[fusion][int8]") {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(model_path("q_mobilenet_v2", false)));
  ExportedProgram program = load_pt2(bytes, "q_mobilenet_v2");
  // PT2E keeps the int8 weights as buffers (the session marks only parameters
  // and constants fixed, since set_buffer may rewrite a buffer); here the
  // plan is told they are fixed, to see the mark reach every product.
  std::set<std::string> buffers;
  for (const auto& spec : program.signature.input_specs)
    if (spec.kind == InputKind::Buffer) buffers.insert(spec.arg.name);
  REQUIRE(!buffers.empty());
  for (bool mark : {false, true}) {
    PlanSet plans(program.graph, mark ? buffers : std::set<std::string>{}, nullptr);
    const GraphPlan& plan = plans.root_plan();
    int products = 0;
    for (const PreparedNode& node : plan.nodes) {
      const std::string name = node.op->schema.qualified_name();
      if (name != "pt2web::quantized_conv2d.default" && name != "pt2web::quantized_linear.default") continue;
      ++products;
      const ArgSource& flag = node.args.back();
      REQUIRE(flag.kind == ArgSource::Kind::Constant);
      CHECK(flag.constant.b == mark);
    }
    CHECK(products == 53);
  }
}

TEST_CASE("unread float originals and int8 weights stay in the archive bytes", "[memory][int8]") {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(model_path("q_digits_cnn", false)));
  auto session = std::make_unique<Session>(load_pt2(bytes, "q_digits_cnn"));
  // conv1.weight: the float original no node reads (the legacy zip leaves it misaligned)
  const Tensor& original = session->program().state_dict.at("conv1.weight");
  CHECK(inside(original, *bytes));
  // the int8 weights are buffers the program never writes: shared, not copied
  CHECK(buffers_the_program_may_write(session->program()).empty());
  const Tensor& weight = session->buffers().at("_frozen_param0");
  CHECK(weight.storage() == session->program().state_dict.at("_frozen_param0").storage());
  // state_dict() hands out aligned tensors with the same values
  for (const auto& [name, t] : session->state_dict()) CHECK(is_aligned(t));
  // writing a shared buffer copies it first
  Tensor zeros = Tensor::empty(weight.dtype(), weight.sizes());
  session->set_buffer("_frozen_param0", zeros);
  CHECK(session->buffers().at("_frozen_param0").storage() != session->program().state_dict.at("_frozen_param0").storage());
  session->reset_state();
}
