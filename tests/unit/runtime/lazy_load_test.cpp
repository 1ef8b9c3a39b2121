// Loading from a source that copies (as the JavaScript binding's does): only
// the ranges parsed and the weights the program reads are copied; the
// state-dict entries no node reads (the float originals PT2E keeps next to
// its int8 weights) stay in the source until state_dict() or save() asks,
// and everything a caller sees is the same as after a load from memory.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <string>

#include "cases.h"
#include "fixture_list.h"
#include "io/byte_source.h"
#include "io/pt2_loader.h"
#include "runtime/loaded_program.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

// Copies every range it is asked for, like the JS source, and counts the
// bytes; `gone` makes later reads fail as a detached JS buffer does.
class CopyingSource final : public ByteSource {
 public:
  explicit CopyingSource(Bytes bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_->size(); }
  SharedBytes read(uint64_t offset, uint64_t length) const override {
    if (gone) fail(ErrorCode::BadFile, "the bytes are gone");
    REQUIRE(offset + length <= bytes_->size());
    copied += length;
    ranges.emplace_back(offset, offset + length);
    auto copy = std::make_shared<std::vector<uint8_t>>(bytes_->begin() + offset, bytes_->begin() + offset + length);
    return {copy->data(), copy->size(), copy};
  }
  bool borrows() const override { return false; }

  mutable uint64_t copied = 0;
  mutable std::vector<std::pair<uint64_t, uint64_t>> ranges;  // [begin, end) of each read
  bool gone = false;

 private:
  Bytes bytes_;
};

Bytes file(const std::string& dir, const std::string& fixture) {
  return std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + "/" + fixture + "/model.pt2"));
}

bool same(const Tensor& a, const Tensor& b) {
  Tensor ca = a.contiguous(), cb = b.contiguous();
  return ca.dtype() == cb.dtype() && ca.sizes() == cb.sizes() &&
         std::memcmp(ca.raw_data(), cb.raw_data(), ca.nbytes()) == 0;
}

bool same_value(const PyValue& a, const PyValue& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == PyValue::Kind::Tensor) return same(a.tensor, b.tensor);
  if (a.items.size() != b.items.size()) return false;
  for (size_t k = 0; k < a.items.size(); ++k)
    if (!same_value(a.items[k], b.items[k])) return false;
  return true;
}

uint64_t state_bytes(const LoadedProgram& program) {
  uint64_t total = 0;
  for (const auto& entry : program.program().state_dict) total += entry.second.nbytes();
  return total;
}

void check_same_program(LoadedProgram& from_memory, LoadedProgram& from_source) {
  auto expected = from_memory.state_dict();
  auto got = from_source.state_dict();
  REQUIRE(got.size() == expected.size());
  for (size_t k = 0; k < got.size(); ++k) {
    CHECK(got[k].first == expected[k].first);
    CHECK(same(got[k].second, expected[k].second));
  }
  CHECK(from_source.save() == from_memory.save());
  PyValue inputs = from_memory.random_inputs(7);
  PyValue a = from_memory.run(inputs.items[0], inputs.items[1]);
  PyValue b = from_source.run(inputs.items[0], inputs.items[1]);
  CHECK(same_value(a, b));
}

}  // namespace

TEST_CASE("an int8 program from a copying source never copies the float originals", "[lazy_load][int8]") {
  for (const std::string fixture : {"q_digits_cnn", "q_mobilenet_v2"}) {
    INFO(fixture);
    Bytes bytes = file(testing::int8_fixtures_dir(), fixture);
    auto source = std::make_shared<CopyingSource>(bytes);
    LoadedProgram from_memory(bytes, fixture);
    LoadedProgram from_source(std::shared_ptr<const ByteSource>(source), fixture);
    // The state the program keeps is what it reads; the float originals
    // (the rest of a memory load's state) are left in the source.
    uint64_t kept = state_bytes(from_source);
    uint64_t unread = state_bytes(from_memory) - kept;
    CHECK(unread > kept);
    CHECK(source->copied < bytes->size() - unread / 2);
    // Not one byte of an unread record is read, not even by the zip reader.
    auto loader_source = std::make_shared<CopyingSource>(bytes);
    UnreadState left;
    load_pt2(std::shared_ptr<const ByteSource>(loader_source), fixture, nullptr, &left);
    uint64_t left_bytes = 0;
    for (const auto& [name, t] : left.tensors) {
      left_bytes += t.storage.nbytes;
      for (const auto& [begin, end] : loader_source->ranges)
        CHECK((end <= t.storage.offset || begin >= t.storage.offset + t.storage.nbytes));
    }
    CHECK(left_bytes == unread);
    check_same_program(from_memory, from_source);
    // A source that can no longer be read fails state_dict() and save()
    // clearly; the program itself still runs.
    source->gone = true;
    CHECK_THROWS_WITH(from_source.state_dict(), Catch::Contains("the bytes are gone"));
    CHECK_THROWS_WITH(from_source.save(), Catch::Contains("the bytes are gone"));
    PyValue inputs = from_source.random_inputs(3);
    CHECK(same_value(from_source.run(inputs.items[0], inputs.items[1]), from_memory.run(inputs.items[0], inputs.items[1])));
  }
}

TEST_CASE("a float program from a copying source copies each weight once", "[lazy_load]") {
  for (const std::string fixture : {"mlp", "digits_cnn"}) {
    INFO(fixture);
    Bytes bytes = file(testing::fixtures_dir(), fixture);
    auto source = std::make_shared<CopyingSource>(bytes);
    LoadedProgram from_memory(bytes, fixture);
    LoadedProgram from_source(std::shared_ptr<const ByteSource>(source), fixture);
    CHECK(state_bytes(from_source) == state_bytes(from_memory));
    // The pieces the loader reads, not the whole file, and each weight once:
    // beyond the file's size, only the first bytes (read to recognise other
    // formats) and each nested zip's tail and directory are read twice.
    CHECK(source->copied < bytes->size() + 16 * 1024);
    auto decomposed = from_source.decomposed();
    CHECK(decomposed->state_dict().size() == from_memory.state_dict().size());
    check_same_program(from_memory, from_source);
  }
}

TEST_CASE("weight progress counts the bytes of the weights a program reads, once each", "[lazy_load]") {
  // mlp: every weight read; q_mobilenet_v2: the float originals are not
  // read, so they are not counted either.
  for (const auto& [dir, fixture] : {std::pair<std::string, std::string>{testing::fixtures_dir(), "mlp"},
                                     {testing::int8_fixtures_dir(), "q_mobilenet_v2"}}) {
    INFO(fixture);
    Bytes bytes = file(dir, fixture);
    std::vector<std::pair<uint64_t, uint64_t>> told;
    LoadedProgram program(std::make_shared<CopyingSource>(bytes), fixture, "",
                          [&](uint64_t done, uint64_t total) { told.emplace_back(done, total); });
    const uint64_t kept = state_bytes(program);
    REQUIRE(told.size() >= 2);
    CHECK(told.front() == std::make_pair(uint64_t{0}, kept));
    CHECK(told.back() == std::make_pair(kept, kept));
    for (size_t k = 1; k < told.size(); ++k) {
      CHECK(told[k].second == kept);
      CHECK(told[k].first > told[k - 1].first);
    }
    // In steps of at least 1% (the last may be shorter).
    for (size_t k = 1; k + 1 < told.size(); ++k) CHECK(told[k].first - told[k - 1].first >= kept / 100);
  }
  // A source that borrows copies no weight, so nothing is told.
  bool called = false;
  LoadedProgram borrowed(memory_source(file(testing::fixtures_dir(), "mlp")), "mlp", "",
                         [&](uint64_t, uint64_t) { called = true; });
  CHECK_FALSE(called);
}

TEST_CASE("a broken archive read from a copying source fails as it does from memory", "[lazy_load]") {
  Bytes whole = file(testing::fixtures_dir(), "mlp");
  for (size_t cut : {size_t{10}, whole->size() / 2, whole->size() - 30}) {
    INFO("first " << cut << " bytes");
    Bytes bytes = std::make_shared<const std::vector<uint8_t>>(whole->begin(), whole->begin() + cut);
    std::string from_memory, from_source;
    try {
      LoadedProgram program(bytes, "cut.pt2");
    } catch (const Error& e) {
      from_memory = e.what();
    }
    try {
      LoadedProgram program(std::make_shared<CopyingSource>(bytes), "cut.pt2");
    } catch (const Error& e) {
      from_source = e.what();
    }
    CHECK(!from_memory.empty());
    CHECK(from_source == from_memory);
  }
}
