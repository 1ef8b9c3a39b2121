// Test support: reads the fixtures' cases.json (format "pt2web-cases/1", see
// tests/fixtures/README.md) into PyValues and compares results with the
// expected values torch recorded. Used by the Catch2 fixture tests and the
// native development CLI.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "program/py_value.h"

namespace pt2web::testing {

struct Case {
  std::string name;
  PyValue args;
  PyValue kwargs;
  bool expects_error = false;
  std::string error_message;  // torch's message when expects_error
  PyValue expected;
  double rtol = 0, atol = 0;
  bool has_state_after = false;
  PyValue state_after;  // dict name -> tensor
  bool has_args_after = false;
  PyValue args_after, kwargs_after;
};

std::vector<uint8_t> read_file(const std::string& path);
std::vector<Case> read_cases(const std::string& path);
PyValue decode_value(const nlohmann::json& j);

// Compares got with want; returns "" when they match, else a description of
// the first mismatch. *max_error receives the largest absolute difference seen.
std::string compare(const PyValue& got, const PyValue& want, double rtol, double atol, double* max_error,
                    const std::string& path = "out");

}  // namespace pt2web::testing
