// Catch2 checks of a program's graph signature and its derived views against
// the "signature" object torch wrote into a fixture's meta.json /
// meta.core.json. Shared by the fixture metadata test and the decomposition test.
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "program/exported_program.h"

namespace pt2web::testing {

// meta.json renders user-input constants as their Python values.
inline std::string meta_user_input(const nlohmann::json& v) {
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

inline std::map<std::string, std::string> as_string_map(const nlohmann::json& j) {
  return j.get<std::map<std::string, std::string>>();
}

inline void check_signature(const GraphSignature& got, const nlohmann::json& sig) {
  REQUIRE(got.input_specs.size() == sig["input_specs"].size());
  for (size_t i = 0; i < got.input_specs.size(); ++i) {
    const InputSpec& s = got.input_specs[i];
    const auto& m = sig["input_specs"][i];
    CHECK(input_kind_name(s.kind) == m["kind"].get<std::string>());
    CHECK(s.arg.name == m["arg"]["name"].get<std::string>());
    if (!m["target"].is_null()) CHECK(s.target == m["target"].get<std::string>());
    if (s.kind == InputKind::Buffer) CHECK(s.persistent.value_or(true) == m["persistent"].get<bool>());
  }
  REQUIRE(got.output_specs.size() == sig["output_specs"].size());
  for (size_t i = 0; i < got.output_specs.size(); ++i) {
    const OutputSpec& s = got.output_specs[i];
    const auto& m = sig["output_specs"][i];
    CHECK(output_kind_name(s.kind) == m["kind"].get<std::string>());
    CHECK(s.arg.name == m["arg"]["name"].get<std::string>());
    if (!m["target"].is_null()) CHECK(s.target == m["target"].get<std::string>());
  }
  CHECK(got.parameters() == sig["parameters"].get<std::vector<std::string>>());
  CHECK(got.buffers() == sig["buffers"].get<std::vector<std::string>>());
  CHECK(got.non_persistent_buffers() == sig["non_persistent_buffers"].get<std::vector<std::string>>());
  std::vector<std::string> user_inputs;
  for (const auto& v : sig["user_inputs"]) user_inputs.push_back(meta_user_input(v));
  CHECK(got.user_inputs() == user_inputs);
  CHECK(got.user_outputs() == sig["user_outputs"].get<std::vector<std::string>>());
  CHECK(got.inputs_to_parameters() == as_string_map(sig["inputs_to_parameters"]));
  CHECK(got.inputs_to_buffers() == as_string_map(sig["inputs_to_buffers"]));
  CHECK(got.buffers_to_mutate() == as_string_map(sig["buffers_to_mutate"]));
  CHECK(got.user_inputs_to_mutate() == as_string_map(sig["user_inputs_to_mutate"]));
  CHECK_FALSE(got.backward_signature().has_value());
}

}  // namespace pt2web::testing
