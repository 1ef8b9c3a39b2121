// Loads every fixture program (both dialects) and compares what pt2web reads
// with what torch itself reported in meta.json / meta.core.json: dialect,
// graph signature and its derived views, state dict and constants (names,
// dtypes, shapes), range constraints, module call graph and the in/out specs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cases.h"
#include "fixture_list.h"
#include "fixture_signature_checks.h"
#include "io/pt2_loader.h"
#include "program/exported_program.h"

using namespace pt2web;
using json = nlohmann::json;

namespace {


json read_json(const std::string& path) {
  auto bytes = testing::read_file(path);
  return json::parse(bytes.begin(), bytes.end());
}


void check_program(const std::string& name, bool core) {
  std::string dir = std::string(PT2WEB_FIXTURES_DIR) + "/" + name;
  json meta = read_json(dir + (core ? "/meta.core.json" : "/meta.json"));
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + (core ? "/model.core.pt2" : "/model.pt2")));
  ExportedProgram ep = load_pt2(bytes, name);
  REQUIRE_NOTHROW(verify_program(ep));
  INFO(name << (core ? " (core)" : ""));

  CHECK(ep.dialect == meta["dialect"].get<std::string>());
  testing::check_signature(ep.signature, meta["signature"]);

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
