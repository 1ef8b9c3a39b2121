// Shared by the bad_input_* tests: build a hostile variant of a real fixture
// (rewrite one archive entry, one nested pickle or one JSON field), load it,
// and capture how pt2web refuses it. A refusal is a pt2web::Error; anything
// else thrown escapes and fails the test.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases.h"
#include "runtime/loaded_program.h"
#include "util/error.h"
#include "zip_records.h"
#include "test_data_dirs.h"

namespace pt2web::bad_input {

struct Refusal {
  bool refused = false;
  ErrorCode code = ErrorCode::Internal;
  std::string message;
};

template <typename Body>
Refusal refusal_of(Body body) {
  try {
    body();
  } catch (const Error& e) {
    return {true, e.code(), e.what()};
  }
  return {};
}

inline std::vector<uint8_t> fixture_bytes(const std::string& fixture) {
  return testing::read_file(testing::fixtures_dir() + "/" + fixture + "/model.pt2");
}

inline std::unique_ptr<LoadedProgram> load_bytes(const std::vector<uint8_t>& bytes) {
  return std::make_unique<LoadedProgram>(std::make_shared<const std::vector<uint8_t>>(bytes), "hostile.pt2");
}

inline Refusal load_refusal(const std::vector<uint8_t>& bytes) {
  return refusal_of([&] { load_bytes(bytes); });
}

// The record of that name (which must exist).
inline std::string& entry(std::vector<testing::ZipRecord>& records, const std::string& name) {
  for (testing::ZipRecord& r : records)
    if (r.name == name) return r.data;
  FAIL("no entry " << name);
  throw std::logic_error("unreachable");
}

// The fixture archive with its program JSON passed through `edit`.
template <typename Edit>
std::vector<uint8_t> with_program_json(const std::string& fixture, Edit edit) {
  std::vector<testing::ZipRecord> records = testing::read_records(fixture_bytes(fixture));
  std::string& text = entry(records, "serialized_exported_program.json");
  nlohmann::json program = nlohmann::json::parse(text);
  edit(program);
  text = program.dump();
  return testing::write_zip(records).bytes;
}

// The fixture archive whose nested torch.save zip `nested` is replaced by
// one holding `pickle` as data.pkl and the given storages (key -> bytes).
inline std::vector<uint8_t> with_pickle(const std::string& fixture, const std::string& nested,
                                        const std::string& pickle,
                                        const std::vector<testing::ZipRecord>& storages = {}) {
  std::vector<testing::ZipRecord> records = testing::read_records(fixture_bytes(fixture));
  std::vector<testing::ZipRecord> inner{{"archive/data.pkl", pickle}};
  for (const testing::ZipRecord& s : storages) inner.push_back({"archive/data/" + s.name, s.data});
  std::vector<uint8_t> zip = testing::write_zip(inner).bytes;
  entry(records, nested).assign(zip.begin(), zip.end());
  return testing::write_zip(records).bytes;
}

}  // namespace pt2web::bad_input

// The statement must be refused with `error_code` and a message containing `text`.
#define CHECK_REFUSED(refusal, error_code, text)                  \
  do {                                                           \
    const ::pt2web::bad_input::Refusal& r_ = (refusal);          \
    INFO("message: " << r_.message);                             \
    CHECK(r_.refused);                                           \
    CHECK(r_.code == (error_code));                              \
    CHECK_THAT(r_.message, Catch::Contains(text));               \
  } while (0)
