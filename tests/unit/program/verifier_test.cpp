// The verifier rejects inconsistent programs with a message naming what and
// where. Each test breaks one thing in a real fixture program.
#include <catch2/catch.hpp>

#include "cases.h"
#include "io/pt2_loader.h"
#include "program/exported_program.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

ExportedProgram load_fixture(const std::string& name) {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(
      testing::read_file(testing::fixtures_dir() + "/" + name + "/model.pt2"));
  return load_pt2(bytes, name);
}

std::string verify_message(const ExportedProgram& ep) {
  try {
    verify_program(ep);
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::BadProgram);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the verifier accepts real programs", "[verifier]") {
  CHECK(verify_message(load_fixture("mlp")).empty());
  CHECK(verify_message(load_fixture("constants")).empty());
}

TEST_CASE("the verifier rejects a placeholder count that differs from the input specs", "[verifier]") {
  ExportedProgram ep = load_fixture("mlp");
  ep.graph.inputs.pop_back();
  CHECK_THAT(verify_message(ep), Catch::Contains("4 placeholders but the signature has 5 input specs"));
}

TEST_CASE("the verifier rejects outputs that differ from the output specs", "[verifier]") {
  ExportedProgram ep = load_fixture("mlp");
  ep.graph.outputs.push_back(ep.graph.outputs[0]);
  CHECK_THAT(verify_message(ep), Catch::Contains("2 outputs but the signature has 1 output specs"));
}

TEST_CASE("the verifier rejects a value used before it is defined", "[verifier]") {
  ExportedProgram ep = load_fixture("mlp");
  ep.graph.nodes[0].inputs[0].arg.name = "no_such_value";
  CHECK_THAT(verify_message(ep), Catch::Contains("uses value 'no_such_value' before it is defined"));
  CHECK_THAT(verify_message(ep), Catch::Contains("node 0 (torch.ops.aten.linear.default)"));
}

TEST_CASE("the verifier rejects missing state", "[verifier]") {
  ExportedProgram ep = load_fixture("mlp");
  ep.state_dict.erase("fc1.bias");
  CHECK_THAT(verify_message(ep), Catch::Contains("parameter 'fc1.bias' is missing from the state dict"));
  ExportedProgram ep2 = load_fixture("constants");
  ep2.constants.erase("scale");
  CHECK_THAT(verify_message(ep2), Catch::Contains("non-persistent buffer 'scale' is missing from the constants"));
}

TEST_CASE("the verifier rejects a spec naming the wrong placeholder", "[verifier]") {
  ExportedProgram ep = load_fixture("mlp");
  ep.signature.input_specs[0].arg.name = "p_other";
  CHECK_THAT(verify_message(ep), Catch::Contains("names placeholder 'p_other' but placeholder 0 is 'p_fc1_weight'"));
}

TEST_CASE("the verifier rejects mutations of unknown buffers", "[verifier]") {
  ExportedProgram ep = load_fixture("mlp");
  OutputSpec s;
  s.kind = OutputKind::BufferMutation;
  s.arg.kind = Argument::Kind::Tensor;
  s.arg.name = "linear_1";
  s.target = "ghost";
  ep.signature.output_specs.insert(ep.signature.output_specs.begin(), s);
  ep.graph.outputs.insert(ep.graph.outputs.begin(), ep.graph.outputs[0]);
  CHECK_THAT(verify_message(ep), Catch::Contains("mutates 'ghost', which is not a buffer input"));
}

TEST_CASE("signature views follow torch's ExportGraphSignature", "[signature]") {
  ExportedProgram ep = load_fixture("constants");
  const GraphSignature& sig = ep.signature;
  CHECK(sig.parameters() == std::vector<std::string>{"lin.weight", "lin.bias"});
  CHECK(sig.buffers() == std::vector<std::string>{"scale", "bias2"});
  CHECK(sig.non_persistent_buffers() == std::vector<std::string>{"scale"});
  CHECK(sig.lifted_tensor_constants() == std::vector<std::string>{"offset"});
  CHECK(sig.inputs_to_lifted_tensor_constants() == std::map<std::string, std::string>{{"c_offset", "offset"}});
  CHECK(sig.user_inputs() == std::vector<std::string>{"x"});
  CHECK_FALSE(sig.assertion_dep_token().has_value());
  CHECK_FALSE(sig.backward_signature().has_value());
}
