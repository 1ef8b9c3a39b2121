// Hostile program JSON in the mlp fixture: negative and overflowing sizes and
// strides, cycles, dangling and duplicate names, wrong arity, type
// confusion, unknown schema versions and operators, subgraphs nested without
// end. Each is refused at load with a pt2web::Error naming where.
#include "runtime/bad_input_util.h"

using namespace pt2web;
using namespace pt2web::bad_input;
using nlohmann::json;

namespace {

template <typename Edit>
Refusal mlp_with(Edit edit) {
  return load_refusal(with_program_json("mlp", edit));
}

json& graph(json& program) { return program["graph_module"]["graph"]; }
json& meta_of(json& program, const std::string& value) { return graph(program)["tensor_values"][value]; }

}  // namespace

TEST_CASE("a negative size in tensor metadata is refused", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "x")["sizes"][0] = {{"as_int", -4}}; }),
                ErrorCode::BadFile, "tensor_values['x'].sizes[0]: negative size -4");
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "linear")["sizes"][1] = {{"as_int", -1}}; }),
                ErrorCode::BadFile, "negative size -1");
}

TEST_CASE("a negative stride in tensor metadata is refused", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "x")["strides"][1] = {{"as_int", -1}}; }),
                ErrorCode::BadFile, "tensor_values['x'].strides[1]: negative stride -1");
}

TEST_CASE("tensor metadata whose element count overflows is refused", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) {
                  meta_of(p, "relu")["sizes"] = {{{"as_int", int64_t(1) << 40}}, {{"as_int", int64_t(1) << 40}}};
                }),
                ErrorCode::BadFile, "the element count overflows int64");
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "x")["sizes"][0] = {{"as_int", 1e300}}; }),
                ErrorCode::BadFile, "tensor_values['x'].sizes[0]");
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "x")["sizes"][0] = {{"as_float", "NaN"}}; }),
                ErrorCode::BadFile, "out of int64 range");
}

TEST_CASE("a graph with a cycle is refused", "[bad_input]") {
  // linear (node 0) reads relu, which node 1 computes from linear.
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][0]["inputs"][0]["arg"]["as_tensor"]["name"] = "relu"; }),
                ErrorCode::BadProgram, "node 0 (torch.ops.aten.linear.default) uses value 'relu' before it is defined");
}

TEST_CASE("dangling names are refused", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["outputs"][0]["as_tensor"]["name"] = "nowhere"; }),
                ErrorCode::BadProgram, "graph output 0 is 'nowhere'");
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][2]["inputs"][1]["arg"]["as_tensor"]["name"] = "p_fc9_weight"; }),
                ErrorCode::BadProgram, "uses value 'p_fc9_weight'");
}

TEST_CASE("duplicate value names are refused", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][1]["outputs"][0]["as_tensor"]["name"] = "linear"; }),
                ErrorCode::BadProgram, "node 1 (torch.ops.aten.relu.default) defines value 'linear' a second time");
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][0]["outputs"][0]["as_tensor"]["name"] = "x"; }),
                ErrorCode::BadProgram, "defines value 'x' a second time");
}

TEST_CASE("operators called with the wrong arity are refused", "[bad_input]") {
  // linear without its weight; relu with an argument it does not have.
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][0]["inputs"].erase(1); }), ErrorCode::BadProgram,
                "weight");
  CHECK_REFUSED(mlp_with([](json& p) {
                  graph(p)["nodes"][1]["inputs"].push_back({{"name", "alpha"}, {"arg", {{"as_int", 2}}}});
                }),
                ErrorCode::BadProgram, "alpha");
}

TEST_CASE("type confusion in the program JSON is refused", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "x")["sizes"] = "4x16"; }), ErrorCode::BadFile,
                "malformed program JSON");
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "x")["dtype"] = "float32"; }), ErrorCode::BadFile,
                "tensor_values['x'].dtype: expected an integer");
  CHECK_REFUSED(mlp_with([](json& p) { meta_of(p, "x")["dtype"] = 999; }), ErrorCode::BadFile, "999");
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"] = json::object({{"a", 1}}); }), ErrorCode::BadFile,
                "malformed program JSON");
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][0]["target"] = 17; }), ErrorCode::BadFile,
                "malformed program JSON");
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][0]["inputs"][0]["arg"] = {{"as_tensor", 5}}; }),
                ErrorCode::BadFile, "malformed program JSON");
  // null reads as an empty list: refused because the placeholders are missing.
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["inputs"] = nullptr; }), ErrorCode::BadProgram,
                "the graph has 0 placeholders");
  CHECK_REFUSED(mlp_with([](json& p) { p["graph_module"]["signature"]["input_specs"] = 3; }),
                ErrorCode::BadFile, "malformed program JSON");
  CHECK_REFUSED(mlp_with([](json& p) { p = json::array({1, 2, 3}); }), ErrorCode::BadFile,
                "malformed program JSON");
}

TEST_CASE("text that is not JSON is refused", "[bad_input]") {
  std::vector<testing::ZipRecord> records = testing::read_records(fixture_bytes("mlp"));
  entry(records, "serialized_exported_program.json") = "{\"graph_module\": [1, 2";
  CHECK_REFUSED(load_refusal(testing::write_zip(records).bytes), ErrorCode::BadFile,
                "program JSON is not valid JSON");
}

TEST_CASE("unknown schema versions are refused", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) { p["schema_version"] = {{"major", 99}, {"minor", 0}}; }),
                ErrorCode::Unsupported, "export schema version 99.0 is not supported");
  CHECK_REFUSED(mlp_with([](json& p) { p["schema_version"] = {{"major", -3}, {"minor", 1}}; }),
                ErrorCode::Unsupported, "export schema version -3.1");
}

TEST_CASE("unknown operators are refused as UNSUPPORTED", "[bad_input]") {
  CHECK_REFUSED(mlp_with([](json& p) { graph(p)["nodes"][1]["target"] = "torch.ops.os.system.default"; }),
                ErrorCode::Unsupported, "os::system.default");
}

TEST_CASE("subgraphs nested without end are refused", "[bad_input]") {
  // The mlp graph whose first node takes, as an argument, an mlp graph
  // whose first node takes ... 40 levels deep.
  CHECK_REFUSED(mlp_with([](json& p) {
                  const json base = graph(p);
                  json nested = base;
                  for (int level = 0; level < 40; ++level) {
                    json outer = base;
                    outer["nodes"][0]["inputs"].push_back(
                        {{"name", "body"}, {"arg", {{"as_graph", {{"name", "body"}, {"graph", nested}}}}}});
                    nested = std::move(outer);
                  }
                  graph(p) = nested;
                }),
                ErrorCode::BadFile, "subgraphs nest more than 32 levels deep");
}
