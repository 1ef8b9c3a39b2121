// ZipArchive against archives built here byte by byte (stored entries, data
// descriptors, zip64 records, comments, alignment padding, nesting, damage)
// and against the real legacy .pt2 fixtures.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "io/zip_archive.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

// --- a small ZIP writer for tests -------------------------------------------

struct TestEntry {
  std::string name;
  std::string data;
  bool descriptor = false;  // bit 3: zero sizes and CRC in the local header
  bool zip64 = false;       // saturated central sizes/offset plus a zip64 extra field
  uint16_t method = 0;      // the data is written as given whatever the method
  size_t align = 0;         // pad the local extra field so data starts at a multiple
};

struct TestZipOptions {
  std::string comment;
  bool zip64_end = false;  // zip64 end record + locator, saturated classic end record
};

void put16(std::vector<uint8_t>& out, uint64_t v) {
  for (int k = 0; k < 2; ++k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
}
void put32(std::vector<uint8_t>& out, uint64_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
}
void put64(std::vector<uint8_t>& out, uint64_t v) {
  for (int k = 0; k < 8; ++k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
}
void put_text(std::vector<uint8_t>& out, const std::string& text) {
  out.insert(out.end(), text.begin(), text.end());
}

uint32_t crc32_of(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

std::vector<uint8_t> make_zip(const std::vector<TestEntry>& entries,
                              const TestZipOptions& options = {}) {
  std::vector<uint8_t> out;
  std::vector<uint64_t> offsets;
  for (const TestEntry& e : entries) {
    offsets.push_back(out.size());
    uint32_t crc = crc32_of(e.data);
    size_t padding = 0;
    if (e.align != 0) {
      size_t start = out.size() + 30 + e.name.size() + 4;
      padding = (e.align - start % e.align) % e.align;
    }
    put32(out, 0x04034b50);
    put16(out, 20);
    put16(out, e.descriptor ? 0x08 : 0);
    put16(out, e.method);
    put32(out, 0);  // time and date
    put32(out, e.descriptor ? 0 : crc);
    put32(out, e.descriptor ? 0 : e.data.size());
    put32(out, e.descriptor ? 0 : e.data.size());
    put16(out, e.name.size());
    put16(out, e.align != 0 ? 4 + padding : 0);
    put_text(out, e.name);
    if (e.align != 0) {
      put_text(out, "FB");
      put16(out, padding);
      put_text(out, std::string(padding, 'Z'));
    }
    put_text(out, e.data);
    if (e.descriptor) {
      put32(out, 0x08074b50);
      put32(out, crc);
      put32(out, e.data.size());
      put32(out, e.data.size());
    }
  }

  uint64_t dir_offset = out.size();
  for (size_t k = 0; k < entries.size(); ++k) {
    const TestEntry& e = entries[k];
    put32(out, 0x02014b50);
    put16(out, 45);
    put16(out, 45);
    put16(out, e.descriptor ? 0x08 : 0);
    put16(out, e.method);
    put32(out, 0);
    put32(out, crc32_of(e.data));
    put32(out, e.zip64 ? 0xFFFFFFFF : e.data.size());
    put32(out, e.zip64 ? 0xFFFFFFFF : e.data.size());
    put16(out, e.name.size());
    put16(out, e.zip64 ? 4 + 24 : 0);
    put16(out, 0);  // comment
    put16(out, 0);  // disk
    put16(out, 0);  // internal attributes
    put32(out, 0);  // external attributes
    put32(out, e.zip64 ? 0xFFFFFFFF : offsets[k]);
    put_text(out, e.name);
    if (e.zip64) {
      put16(out, 0x0001);
      put16(out, 24);
      put64(out, e.data.size());  // uncompressed, compressed, local offset
      put64(out, e.data.size());
      put64(out, offsets[k]);
    }
  }
  uint64_t dir_size = out.size() - dir_offset;

  if (options.zip64_end) {
    uint64_t record = out.size();
    put32(out, 0x06064b50);
    put64(out, 44);
    put16(out, 45);
    put16(out, 45);
    put32(out, 0);
    put32(out, 0);
    put64(out, entries.size());
    put64(out, entries.size());
    put64(out, dir_size);
    put64(out, dir_offset);
    put32(out, 0x07064b50);
    put32(out, 0);
    put64(out, record);
    put32(out, 1);
  }
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, options.zip64_end ? 0xFFFF : entries.size());
  put16(out, options.zip64_end ? 0xFFFF : entries.size());
  put32(out, options.zip64_end ? 0xFFFFFFFF : dir_size);
  put32(out, options.zip64_end ? 0xFFFFFFFF : dir_offset);
  put16(out, options.comment.size());
  put_text(out, options.comment);
  return out;
}

Bytes share(std::vector<uint8_t> bytes) {
  return std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
}

std::string as_string(const std::vector<uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

// The Error that f throws (the test fails when it throws nothing or another type).
Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected pt2web::Error");
  return Error(ErrorCode::Internal, "unreachable");
}

std::vector<TestEntry> sample_entries() {
  return {{"a.txt", "hello"}, {"dir/b.bin", std::string("\x00\x01\x02\x03", 4)},
          {"empty", ""}};
}

void check_sample(const ZipArchive& zip) {
  REQUIRE(zip.entries().size() == 3);
  CHECK(zip.entries()[0].name == "a.txt");
  CHECK(zip.entries()[1].name == "dir/b.bin");
  CHECK(zip.read_string("a.txt") == "hello");
  CHECK(zip.read_string("dir/b.bin") == std::string("\x00\x01\x02\x03", 4));
  CHECK(zip.read("empty").size == 0);
  CHECK(zip.find("a.txt")->crc32 == crc32_of("hello"));
  CHECK(zip.find("a.txt")->size == 5);
}

std::vector<uint8_t> read_fixture(const std::string& relative) {
  std::string path = testing::fixtures_dir() + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("zip: stored entries are listed, found and read") {
  ZipArchive zip = ZipArchive::open(share(make_zip(sample_entries())), "sample.zip");
  check_sample(zip);
  CHECK(zip.label() == "sample.zip");
  CHECK(zip.contains("dir/b.bin"));
  CHECK_FALSE(zip.contains("dir/"));
  CHECK(zip.find("missing") == nullptr);
  // The first entry's data follows its 30-byte local header and name.
  CHECK(zip.entries()[0].data_offset == 30 + 5);

  Error e = error_of([&] { zip.read("missing"); });
  CHECK(e.code() == ErrorCode::BadFile);
  CHECK_THAT(e.what(), Catch::Contains("sample.zip") && Catch::Contains("missing"));
}

TEST_CASE("zip: an empty archive has no entries") {
  ZipArchive zip = ZipArchive::open(share(make_zip({})), "empty.zip");
  CHECK(zip.entries().empty());
}

TEST_CASE("zip: the end record is found behind a comment") {
  TestZipOptions options;
  options.comment = "a comment that mentions PK\x05\x06 inside it";
  ZipArchive zip = ZipArchive::open(share(make_zip(sample_entries(), options)), "comment.zip");
  check_sample(zip);
}

TEST_CASE("zip: zip64 extra fields and end records") {
  std::vector<TestEntry> entries = sample_entries();
  for (TestEntry& e : entries) e.zip64 = true;
  TestZipOptions options;
  options.zip64_end = true;
  check_sample(ZipArchive::open(share(make_zip(entries, options)), "zip64.zip"));

  SECTION("only the extra fields") {
    check_sample(ZipArchive::open(share(make_zip(entries)), "zip64.zip"));
  }
  SECTION("only the end records") {
    check_sample(ZipArchive::open(share(make_zip(sample_entries(), options)), "zip64.zip"));
  }
}

TEST_CASE("zip: data-descriptor entries take their sizes from the central directory") {
  std::vector<TestEntry> entries = sample_entries();
  for (TestEntry& e : entries) e.descriptor = true;
  check_sample(ZipArchive::open(share(make_zip(entries)), "descriptor.zip"));
}

TEST_CASE("zip: data offsets use the local extra field (torch's alignment padding)") {
  std::vector<TestEntry> entries = sample_entries();
  for (TestEntry& e : entries) {
    e.align = 64;
    e.descriptor = true;
  }
  Bytes bytes = share(make_zip(entries));
  ZipArchive zip = ZipArchive::open(bytes, "aligned.zip");
  check_sample(zip);
  for (const auto& entry : zip.entries()) CHECK(entry.data_offset % 64 == 0);
}

TEST_CASE("zip: every truncation of an archive throws BadFile") {
  std::vector<TestEntry> entries = sample_entries();
  entries[1].zip64 = true;
  entries[2].descriptor = true;
  TestZipOptions options;
  options.zip64_end = true;
  std::vector<uint8_t> full = make_zip(entries, options);
  for (size_t n = 0; n < full.size(); ++n) {
    INFO("truncated to " << n << " bytes");
    std::vector<uint8_t> prefix(full.begin(), full.begin() + n);
    Error alone = error_of([&] { ZipArchive::open(share(prefix), "cut.zip"); });
    CHECK(alone.code() == ErrorCode::BadFile);
    CHECK_THAT(alone.what(), Catch::StartsWith("cut.zip: "));
    // The same prefix as a sub-range of the full bytes must not read past it.
    Error ranged = error_of([&] { ZipArchive::open(share(full), "range.zip", 0, n); });
    CHECK(ranged.code() == ErrorCode::BadFile);
  }
}

TEST_CASE("zip: damaged bytes throw Error or still yield in-bounds entries") {
  std::vector<TestEntry> entries = sample_entries();
  entries[0].zip64 = true;
  entries[1].descriptor = true;
  TestZipOptions options;
  options.zip64_end = true;
  std::vector<uint8_t> good = make_zip(entries, options);
  for (size_t at = 0; at < good.size(); ++at) {
    for (uint8_t value : {uint8_t(0x00), uint8_t(0xFF), uint8_t(good[at] ^ 0x01)}) {
      std::vector<uint8_t> bad = good;
      bad[at] = value;
      Bytes bytes = share(bad);
      try {
        ZipArchive zip = ZipArchive::open(bytes, "damaged.zip");
        for (const auto& entry : zip.entries()) {
          if (entry.method != 0) continue;
          SharedBytes span = zip.read(entry.name);
          CHECK(span.data >= bytes->data());
          CHECK(span.data + span.size <= bytes->data() + bytes->size());
        }
      } catch (const Error& e) {
        CHECK((e.code() == ErrorCode::BadFile || e.code() == ErrorCode::Unsupported));
      }
    }
  }
}

TEST_CASE("zip: corrupt structures name what is wrong") {
  std::vector<uint8_t> good = make_zip({{"x", "data"}});
  const size_t end = good.size() - 22;

  SECTION("not a zip") {
    Error e = error_of([&] { ZipArchive::open(share(std::vector<uint8_t>(100, 'a')), "junk"); });
    CHECK_THAT(e.what(), Catch::Contains("junk") && Catch::Contains("end-of-central-directory"));
  }
  SECTION("bad local header") {
    std::vector<uint8_t> bad = good;
    bad[0] = 'X';
    Error e = error_of([&] { ZipArchive::open(share(bad), "bad.zip"); });
    CHECK_THAT(e.what(), Catch::Contains("no local header") && Catch::Contains("'x'"));
  }
  SECTION("more entries than the directory holds") {
    std::vector<uint8_t> bad = good;
    bad[end + 10] = 200;
    Error e = error_of([&] { ZipArchive::open(share(bad), "bad.zip"); });
    CHECK_THAT(e.what(), Catch::Contains("cannot hold 200 entries"));
  }
  SECTION("directory offset past the end") {
    std::vector<uint8_t> bad = good;
    bad[end + 19] = 0x7F;
    Error e = error_of([&] { ZipArchive::open(share(bad), "bad.zip"); });
    CHECK_THAT(e.what(), Catch::Contains("central directory"));
  }
  SECTION("saturated size without a zip64 field") {
    std::vector<uint8_t> bad = good;
    size_t central = 30 + 1 + 4;
    for (int k = 0; k < 4; ++k) bad[central + 20 + k] = 0xFF;
    Error e = error_of([&] { ZipArchive::open(share(bad), "bad.zip"); });
    CHECK_THAT(e.what(), Catch::Contains("zip64 extra field"));
  }
  SECTION("entry data past the end") {
    std::vector<uint8_t> bad = good;
    size_t central = 30 + 1 + 4;
    bad[central + 20] = bad[central + 24] = 0xF0;  // both sizes 240
    Error e = error_of([&] { ZipArchive::open(share(bad), "bad.zip"); });
    CHECK_THAT(e.what(), Catch::Contains("data of entry 'x'"));
  }
  SECTION("local and central names differ") {
    std::vector<uint8_t> bad = good;
    bad[30] = 'y';
    Error e = error_of([&] { ZipArchive::open(share(bad), "bad.zip"); });
    CHECK_THAT(e.what(), Catch::Contains("'y'") && Catch::Contains("'x'"));
  }
  SECTION("duplicate names") {
    Error e = error_of([&] { ZipArchive::open(share(make_zip({{"x", "1"}, {"x", "2"}})), "dup"); });
    CHECK_THAT(e.what(), Catch::Contains("duplicate entry 'x'"));
  }
  SECTION("a range outside the bytes") {
    Error e = error_of([&] { ZipArchive::open(share(good), "range", good.size() + 1, 0); });
    CHECK(e.code() == ErrorCode::BadFile);
    e = error_of([&] { ZipArchive::open(share(good), "range", 4, good.size()); });
    CHECK(e.code() == ErrorCode::BadFile);
  }
  SECTION("no bytes at all") {
    Error e = error_of([&] { ZipArchive::open(Bytes{}, "null"); });
    CHECK(e.code() == ErrorCode::BadFile);
  }
}

TEST_CASE("zip: compressed entries are listed but not read") {
  std::vector<TestEntry> entries = {{"plain", "abc"}, {"packed.pt", "not really deflate"}};
  entries[1].method = 8;
  ZipArchive zip = ZipArchive::open(share(make_zip(entries)), "mixed.zip");
  REQUIRE(zip.find("packed.pt") != nullptr);
  CHECK(zip.find("packed.pt")->method == 8);
  CHECK(zip.read_string("plain") == "abc");
  Error e = error_of([&] { zip.read("packed.pt"); });
  CHECK(e.code() == ErrorCode::Unsupported);
  CHECK_THAT(e.what(), Catch::Contains("mixed.zip") && Catch::Contains("packed.pt"));
  CHECK(error_of([&] { zip.open_nested("packed.pt"); }).code() == ErrorCode::Unsupported);
}

TEST_CASE("zip: a stored entry that is a zip opens as a nested archive") {
  std::vector<TestEntry> inner_entries = sample_entries();
  for (TestEntry& e : inner_entries) {
    e.align = 64;
    e.descriptor = true;
  }
  std::string inner = as_string(make_zip(inner_entries, {"", true}));
  Bytes bytes = share(make_zip({{"first", "xyz"}, {"inner.pt", inner}, {"last", "1"}}));
  ZipArchive outer = ZipArchive::open(bytes, "outer.pt2");
  ZipArchive nested = outer.open_nested("inner.pt");
  check_sample(nested);
  CHECK(nested.label() == "outer.pt2:inner.pt");
  CHECK(nested.source() == outer.source());
  uint64_t start = outer.find("inner.pt")->data_offset;
  for (const auto& entry : nested.entries()) CHECK((entry.data_offset - start) % 64 == 0);

  SECTION("a truncated nested archive names both labels") {
    Bytes cut = share(make_zip({{"inner.pt", inner.substr(0, inner.size() - 30)}}));
    Error e = error_of([&] { ZipArchive::open(cut, "outer.pt2").open_nested("inner.pt"); });
    CHECK(e.code() == ErrorCode::BadFile);
    CHECK_THAT(e.what(), Catch::StartsWith("outer.pt2:inner.pt: "));
  }
  SECTION("every truncation of the nested range throws") {
    for (size_t n = 0; n < inner.size(); ++n) {
      INFO("nested range of " << n << " bytes");
      Error e = error_of([&] { ZipArchive::open(bytes, "sub", start, n); });
      CHECK(e.code() == ErrorCode::BadFile);
    }
  }
}

TEST_CASE("zip: the legacy .pt2 fixtures open with their torch.save records") {
  for (const char* name : {"mlp", "mlp_dynamic", "digits_cnn", "constants", "bf16_mlp"}) {
    INFO(name);
    Bytes bytes = share(read_fixture(std::string(name) + "/model.pt2"));
    ZipArchive zip = ZipArchive::open(bytes, std::string(name) + "/model.pt2");
    for (const char* record : {"serialized_exported_program.json", "serialized_state_dict.pt",
                               "serialized_constants.pt", "serialized_example_inputs.pt",
                               "version"})
      CHECK(zip.contains(record));
    CHECK(zip.read_string("version") == "8.2");
    CHECK(zip.read_string("serialized_exported_program.json").front() == '{');

    // torch.save pads its records to 64 bytes from the start of its own zip.
    ZipArchive state = zip.open_nested("serialized_state_dict.pt");
    uint64_t start = zip.find("serialized_state_dict.pt")->data_offset;
    CHECK(state.contains("archive/data.pkl"));
    CHECK(state.read_string("archive/byteorder") == "little");
    for (const auto& entry : state.entries()) {
      CHECK(entry.method == 0);
      CHECK((entry.data_offset - start) % 64 == 0);
    }
  }
}
