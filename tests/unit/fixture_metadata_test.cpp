// Loads every fixture program (both dialects) and compares what pt2web reads
// with what torch itself reported in meta.json / meta.core.json: dialect,
// graph signature and its derived views, state dict and constants (names,
// dtypes, shapes), range constraints, module call graph and the in/out specs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cases.h"
#include "fixture_list.h"
#include "io/pt2_loader.h"
#include "program/exported_program.h"

using namespace pt2web;
using json = nlohmann::json;

namespace {


json read_json(const std::string& path) {
  auto bytes = testing::read_file(path);
  return json::parse(bytes.begin(), bytes.end());
}

// meta.json renders user-input constants as their Python values.
std::string meta_user_input(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) {
    Argument a;
    a.kind = Argument::Kind::Float;
    a.floats = {v.get<double>()};
    return constant_repr(a);
  }
  return "None";
}

std::map<std::string, std::string> as_map(const json& j) { return j.get<std::map<std::string, std::string>>(); }

void check_program(const std::string& name, bool core) {
  std::string dir = std::string(PT2WEB_FIXTURES_DIR) + "/" + name;
  json meta = read_json(dir + (core ? "/meta.core.json" : "/meta.json"));
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + (core ? "/model.core.pt2" : "/model.pt2")));
  ExportedProgram ep = load_pt2(bytes, name);
  REQUIRE_NOTHROW(verify_program(ep));
  INFO(name << (core ? " (core)" : ""));

  CHECK(ep.dialect == meta["dialect"].get<std::string>());
  const json& sig = meta["signature"];
  REQUIRE(ep.signature.input_specs.size() == sig["input_specs"].size());
  for (size_t i = 0; i < ep.signature.input_specs.size(); ++i) {
    const InputSpec& s = ep.signature.input_specs[i];
    const json& m = sig["input_specs"][i];
    CHECK(input_kind_name(s.kind) == m["kind"].get<std::string>());
    CHECK(s.arg.name == m["arg"]["name"].get<std::string>());
    if (!m["target"].is_null()) CHECK(s.target == m["target"].get<std::string>());
    if (s.kind == InputKind::Buffer) CHECK(s.persistent.value_or(true) == m["persistent"].get<bool>());
  }
  REQUIRE(ep.signature.output_specs.size() == sig["output_specs"].size());
  for (size_t i = 0; i < ep.signature.output_specs.size(); ++i) {
    const OutputSpec& s = ep.signature.output_specs[i];
    const json& m = sig["output_specs"][i];
    CHECK(output_kind_name(s.kind) == m["kind"].get<std::string>());
    CHECK(s.arg.name == m["arg"]["name"].get<std::string>());
    if (!m["target"].is_null()) CHECK(s.target == m["target"].get<std::string>());
  }
  CHECK(ep.signature.parameters() == sig["parameters"].get<std::vector<std::string>>());
  CHECK(ep.signature.buffers() == sig["buffers"].get<std::vector<std::string>>());
  CHECK(ep.signature.non_persistent_buffers() == sig["non_persistent_buffers"].get<std::vector<std::string>>());
  std::vector<std::string> user_inputs;
  for (const auto& v : sig["user_inputs"]) user_inputs.push_back(meta_user_input(v));
  CHECK(ep.signature.user_inputs() == user_inputs);
  CHECK(ep.signature.user_outputs() == sig["user_outputs"].get<std::vector<std::string>>());
  CHECK(ep.signature.inputs_to_parameters() == as_map(sig["inputs_to_parameters"]));
  CHECK(ep.signature.inputs_to_buffers() == as_map(sig["inputs_to_buffers"]));
  CHECK(ep.signature.buffers_to_mutate() == as_map(sig["buffers_to_mutate"]));
  CHECK(ep.signature.user_inputs_to_mutate() == as_map(sig["user_inputs_to_mutate"]));
  CHECK_FALSE(ep.signature.backward_signature().has_value());

  // State dict and constants: names in order, dtypes, shapes.
  std::vector<std::string> state_names;
  for (auto it = meta["state_dict"].begin(); it != meta["state_dict"].end(); ++it) {
    state_names.push_back(it.key());
    REQUIRE(ep.state_dict.count(it.key()));
    const Tensor& t = ep.state_dict.at(it.key());
    CHECK(dtype_name(t.dtype()) == it.value()[0].get<std::string>());
    CHECK(t.sizes() == it.value()[1].get<Shape>());
  }
  // meta.json lists the state dict with sorted keys.
  std::vector<std::string> ours = ep.state_dict_order;
  std::sort(ours.begin(), ours.end());
  std::sort(state_names.begin(), state_names.end());
  CHECK(ours == state_names);
  CHECK(ep.constants.size() == meta["constants"].size());
  for (auto it = meta["constants"].begin(); it != meta["constants"].end(); ++it) {
    REQUIRE(ep.constants.count(it.key()));
    const PyValue& v = ep.constants.at(it.key());
    REQUIRE(v.kind == PyValue::Kind::Tensor);
    CHECK(dtype_name(v.tensor.dtype()) == it.value()[0].get<std::string>());
    CHECK(v.tensor.sizes() == it.value()[1].get<Shape>());
  }

  // Range constraints: symbol -> [min, max] as strings ("int_oo" when unbounded).
  CHECK(ep.range_constraints.size() == meta["range_constraints"].size());
  for (auto it = meta["range_constraints"].begin(); it != meta["range_constraints"].end(); ++it) {
    REQUIRE(ep.range_constraints.count(it.key()));
    const RangeConstraint& r = ep.range_constraints.at(it.key());
    std::string lo = r.min_val ? std::to_string(*r.min_val) : "-int_oo";
    std::string hi = r.max_val ? std::to_string(*r.max_val) : "int_oo";
    CHECK(lo == it.value()[0].get<std::string>());
    CHECK(hi == it.value()[1].get<std::string>());
  }

  std::vector<std::string> fqns;
  for (const auto& e : ep.module_call_graph) fqns.push_back(e.fqn);
  CHECK(fqns == meta["module_call_graph"].get<std::vector<std::string>>());
  CHECK(ep.call_signature().in_spec.to_string() == meta["in_spec"].get<std::string>());
  CHECK(ep.call_signature().out_spec.to_string() == meta["out_spec"].get<std::string>());
}

}  // namespace

TEST_CASE("every fixture's metadata matches what torch reported", "[fixtures][metadata]") {
  auto names = testing::fixture_names(PT2WEB_FIXTURES_DIR);
  REQUIRE(names.size() >= 19);
  for (const auto& name : names) {
    SECTION(name + " training") { check_program(name, false); }
    SECTION(name + " core") { check_program(name, true); }
  }
}
