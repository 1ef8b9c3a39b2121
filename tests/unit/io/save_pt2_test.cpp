// Saving programs: the zip writer (layout, CRC, 64-byte alignment), and
// load -> save -> load on every fixture in both dialects, and on the
// decomposed TRAINING programs: the same program JSON, the same state and
// constants, and the same results on the fixture's cases.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "cases.h"
#include "fixture_list.h"
#include "fixture_runner.h"
#include "io/program_json_writer.h"
#include "io/pt2_loader.h"
#include "io/pt2_writer.h"
#include "io/zip_archive.h"
#include "io/zip_writer.h"
#include "passes/run_decompositions.h"
#include "runtime/loaded_program.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

Bytes as_bytes(std::vector<uint8_t> v) { return std::make_shared<const std::vector<uint8_t>>(std::move(v)); }

bool same_tensor(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
  Tensor ca = a.contiguous(), cb = b.contiguous();
  return std::memcmp(ca.raw_data(), cb.raw_data(), ca.nbytes()) == 0;
}

void check_same_state(const ExportedProgram& a, const ExportedProgram& b) {
  CHECK(a.state_dict_order == b.state_dict_order);
  for (const auto& [name, t] : a.state_dict) {
    INFO("state " << name);
    REQUIRE(b.state_dict.count(name));
    CHECK(same_tensor(t, b.state_dict.at(name)));
  }
  CHECK(a.constants_order == b.constants_order);
  for (const auto& [name, v] : a.constants) {
    INFO("constant " << name);
    REQUIRE(b.constants.count(name));
    CHECK(same_tensor(v.tensor, b.constants.at(name).tensor));
  }
  CHECK(a.example_inputs.has_value() == b.example_inputs.has_value());
}

// Saves, reloads, and checks the reloaded program against the original and
// against the cases torch computed.
void check_round_trip(const ExportedProgram& program, const std::string& cases_path) {
  ExportedProgram reloaded = load_pt2(as_bytes(save_pt2(program)), "saved");
  CHECK(write_program_json(reloaded) == write_program_json(program));
  check_same_state(program, reloaded);
  LoadedProgram loaded(std::move(reloaded));
  auto results = testing::run_cases(loaded, cases_path);
  REQUIRE_FALSE(results.empty());
  for (const auto& c : results) {
    INFO("case " << c.name << ": " << c.detail);
    CHECK(c.passed);
  }
}

}  // namespace

TEST_CASE("zip writer: stored entries, CRC-32, aligned data", "[save][zip]") {
  CHECK(crc32_of(reinterpret_cast<const uint8_t*>("123456789"), 9) == 0xCBF43926u);
  ZipWriter writer(64);
  writer.add("a/first", std::string("hello"));
  writer.add("a/second_name_of_another_length", std::string(100, 'x'));
  writer.add("empty", std::string());
  ZipArchive zip = ZipArchive::open(as_bytes(writer.finish()), "written");
  REQUIRE(zip.entries().size() == 3);
  CHECK(zip.read_string("a/first") == "hello");
  CHECK(zip.read_string("a/second_name_of_another_length") == std::string(100, 'x'));
  CHECK(zip.read_string("empty").empty());
  for (const auto& e : zip.entries()) CHECK(e.data_offset % 64 == 0);
  ZipWriter twice;
  twice.add("x", std::string("1"));
  CHECK_THROWS_AS(twice.add("x", std::string("2")), Error);
}

TEST_CASE("load -> save -> load keeps every fixture program", "[save][fixtures]") {
  auto names = testing::fixture_names(testing::fixtures_dir());
  REQUIRE(names.size() >= 19);
  for (const auto& name : names)
    for (bool core : {false, true})
      SECTION(name + (core ? " core" : " training")) {
        std::string dir = testing::fixtures_dir() + "/" + name;
        ExportedProgram program =
            load_pt2(as_bytes(testing::read_file(dir + (core ? "/model.core.pt2" : "/model.pt2"))), name);
        check_round_trip(program, dir + (core ? "/cases.core.json" : "/cases.json"));
      }
}

TEST_CASE("decomposed programs save and load back", "[save][decompose]") {
  auto names = testing::fixture_names(testing::fixtures_dir());
  for (const auto& name : names)
    SECTION(name) {
      std::string dir = testing::fixtures_dir() + "/" + name;
      ExportedProgram program = run_decompositions(load_pt2(as_bytes(testing::read_file(dir + "/model.pt2")), name));
      check_round_trip(program, dir + "/cases.core.json");
    }
}
