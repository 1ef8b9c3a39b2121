// The program JSON reader accepts every encoding torch has written.
#include <catch2/catch.hpp>

#include <cmath>

#include "io/program_json.h"
#include "util/error.h"

using namespace pt2web;

namespace {

// A minimal one-node program; `extra` is spliced into the top-level object.
std::string program_json(const std::string& node_arg, const std::string& extra) {
  return R"({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}],
    "outputs": [{"as_tensor": {"name": "y"}}],
    "nodes": [{"target": "torch.ops.aten.add.Tensor", "inputs": [
       {"name": "self", "arg": {"as_tensor": {"name": "x"}}},
       {"name": "other", "arg": )" + node_arg + R"(}],
       "outputs": [{"as_tensor": {"name": "y"}}], "metadata": {}}],
    "tensor_values": {
      "x": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "s0", "hint": 3}}], "requires_grad": false,
            "device": {"type": "cpu"}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7},
      "y": {"dtype": 7, "sizes": [{"as_int": 3}], "requires_grad": false, "device": {"type": "cpu"},
            "strides": [{"as_int": 1}], "storage_offset": 0, "layout": 7}},
    "sym_int_values": {}, "sym_bool_values": {}},
   "signature": {"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}],
                 "output_specs": [{"user_output": {"arg": {"as_tensor": {"name": "y"}}}}]},
   "module_call_graph": [{"fqn": "", "signature": {"inputs": [], "outputs": [],
     "in_spec": "[1, {\"type\": \"builtins.tuple\", \"context\": \"null\", \"children_spec\": [{\"type\": \"builtins.tuple\", \"context\": \"null\", \"children_spec\": [{\"type\": null, \"context\": null, \"children_spec\": []}]}, {\"type\": \"builtins.dict\", \"context\": \"[]\", \"children_spec\": []}]}]",
     "out_spec": "[1, {\"type\": null, \"context\": null, \"children_spec\": []}]"}}]},
  )" + extra + "}";
}

}  // namespace

TEST_CASE("single-key unions and 8.x fields", "[program_json]") {
  ExportedProgram ep = parse_program_json(program_json(R"({"as_float": "-Infinity"})",
      R"("range_constraints": {"s0": {"min_val": 2, "max_val": null}}, "schema_version": {"major": 8, "minor": 2}, "verifiers": ["TRAINING"])"));
  CHECK(ep.dialect == "TRAINING");
  CHECK(ep.schema_version.major == 8);
  const Argument& other = ep.graph.nodes[0].inputs[1].arg;
  REQUIRE(other.kind == Argument::Kind::Float);
  CHECK(std::isinf(other.floats[0]));
  CHECK(other.floats[0] < 0);
  CHECK(ep.range_constraints.at("s0").min_val == 2);
  CHECK_FALSE(ep.range_constraints.at("s0").max_val.has_value());
  const TensorMeta& x = ep.graph.tensor_values.at("x");
  REQUIRE(x.sizes[0].is_symbolic);
  CHECK(x.sizes[0].expr->to_string() == "s0");
  CHECK(x.sizes[0].hint == 3);
}

TEST_CASE("old all-keys unions, bare Infinity tokens and integer schema versions", "[program_json]") {
  ExportedProgram ep = parse_program_json(program_json(
      R"({"as_none": null, "as_tensor": null, "as_float": Infinity, "as_int": null})",
      R"("range_constraints": {"s0": {"min_val": 2, "max_val": 9223372036854775806}}, "schema_version": 2, "dialect": "ATEN")"));
  CHECK(ep.dialect == "ATEN");
  CHECK(ep.schema_version.major == 2);
  const Argument& other = ep.graph.nodes[0].inputs[1].arg;
  REQUIRE(other.kind == Argument::Kind::Float);
  CHECK(std::isinf(other.floats[0]));
  CHECK_FALSE(ep.range_constraints.at("s0").max_val.has_value());
}

TEST_CASE("malformed program JSON names the path", "[program_json]") {
  try {
    parse_program_json(R"({"graph_module": {"graph": {"inputs": [], "outputs": []}}})");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::BadFile);
    CHECK_THAT(std::string(e.what()), Catch::Contains("missing field 'nodes'"));
  }
  CHECK_THROWS_AS(parse_program_json("{not json"), Error);
}
