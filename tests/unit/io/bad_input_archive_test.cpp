// Hostile .pt2 archives built from the mlp fixture: truncated, corrupted,
// entries pointing past the end or overlapping, sizes claiming gigabytes,
// compressed and duplicate entries, damaged nested torch.save zips. Each is
// refused with a pt2web::Error naming the archive and what is wrong.
#include "runtime/bad_input_util.h"

using namespace pt2web;
using namespace pt2web::bad_input;
using testing::read_records;
using testing::write_zip;
using testing::WrittenZip;
using testing::ZipRecord;

namespace {

WrittenZip mlp_zip() { return write_zip(read_records(fixture_bytes("mlp"))); }

size_t index_of(const std::vector<ZipRecord>& records, const std::string& name) {
  for (size_t k = 0; k < records.size(); ++k)
    if (records[k].name == name) return k;
  FAIL("no entry " << name);
  return 0;
}

}  // namespace

TEST_CASE("the rewritten mlp archive loads (control for the hostile variants)", "[bad_input]") {
  CHECK_FALSE(load_refusal(mlp_zip().bytes).refused);
}

TEST_CASE("an archive truncated anywhere is refused as BAD_FILE", "[bad_input]") {
  std::vector<uint8_t> bytes = fixture_bytes("mlp");
  for (size_t length = 0; length < bytes.size(); length += 37) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + length);
    CAPTURE(length);
    CHECK_REFUSED(load_refusal(cut), ErrorCode::BadFile, "hostile.pt2");
  }
}

TEST_CASE("bytes that are not a zip are refused as BAD_FILE", "[bad_input]") {
  std::string text = "this is not a zip archive, just text";
  CHECK_REFUSED(load_refusal(std::vector<uint8_t>(text.begin(), text.end())), ErrorCode::BadFile,
                "hostile.pt2");
}

TEST_CASE("every single-byte corruption of the directory is loaded or refused cleanly", "[bad_input]") {
  // The central directory and end record decide every offset and size; any
  // byte of them may be wrong. A flip may also leave a loadable archive.
  WrittenZip zip = mlp_zip();
  int refused = 0;
  for (uint64_t at = zip.central_header_offsets[0]; at < zip.bytes.size(); ++at) {
    std::vector<uint8_t> damaged = zip.bytes;
    damaged[at] ^= 0xA5;
    Refusal r = load_refusal(damaged);  // a non-Error exception would fail the test
    if (r.refused) ++refused;
    CAPTURE(at, r.message);
    CHECK((!r.refused || r.code != ErrorCode::Internal));
  }
  CHECK(refused > 0);
}

TEST_CASE("an entry whose local header lies past the end is refused", "[bad_input]") {
  WrittenZip zip = mlp_zip();
  testing::patch_le(zip.bytes, zip.central_header_offsets[1] + testing::kCentralLocalOffset, 4,
                    zip.bytes.size() + 100);
  CHECK_REFUSED(load_refusal(zip.bytes), ErrorCode::BadFile, "past the end");
}

TEST_CASE("an entry claiming gigabytes is refused before anything is read", "[bad_input]") {
  // Stored sizes of 4 GiB - 16 on a 13 kB file: refused from the directory
  // alone (entries are spans into the file; nothing is allocated for them).
  WrittenZip zip = mlp_zip();
  for (uint64_t field : {testing::kCentralSize, testing::kCentralCompressedSize})
    testing::patch_le(zip.bytes, zip.central_header_offsets[0] + field, 4, 0xFFFFFFF0u);
  CHECK_REFUSED(load_refusal(zip.bytes), ErrorCode::BadFile, "extends past the end");
}

TEST_CASE("a directory claiming more entries than it can hold is refused", "[bad_input]") {
  WrittenZip zip = mlp_zip();
  testing::patch_le(zip.bytes, zip.end_record_offset + testing::kEndEntryCount, 2, 0xFFF0);
  CHECK_REFUSED(load_refusal(zip.bytes), ErrorCode::BadFile, "cannot hold");
}

TEST_CASE("entries whose data overlap are refused", "[bad_input]") {
  // Entry 0 grows (in both headers) to swallow entry 1's local header.
  WrittenZip zip = mlp_zip();
  uint64_t size = zip.local_header_offsets[1] + 40 - zip.data_offsets[0];
  for (uint64_t field : {testing::kLocalSize, testing::kLocalCompressedSize})
    testing::patch_le(zip.bytes, zip.local_header_offsets[0] + field, 4, size);
  for (uint64_t field : {testing::kCentralSize, testing::kCentralCompressedSize})
    testing::patch_le(zip.bytes, zip.central_header_offsets[0] + field, 4, size);
  CHECK_REFUSED(load_refusal(zip.bytes), ErrorCode::BadFile, "overlap");
}

TEST_CASE("two directory entries sharing one local header are refused", "[bad_input]") {
  // Both central entries name the same record: the second's name then
  // disagrees with the local header it points at.
  WrittenZip zip = mlp_zip();
  testing::patch_le(zip.bytes, zip.central_header_offsets[1] + testing::kCentralLocalOffset, 4,
                    zip.local_header_offsets[0]);
  CHECK_REFUSED(load_refusal(zip.bytes), ErrorCode::BadFile, "differs from central directory name");
}

TEST_CASE("a compressed program entry is refused as UNSUPPORTED", "[bad_input]") {
  WrittenZip zip = mlp_zip();
  std::vector<ZipRecord> records = read_records(zip.bytes);
  size_t k = index_of(records, "serialized_exported_program.json");
  testing::patch_le(zip.bytes, zip.local_header_offsets[k] + testing::kLocalMethod, 2, 8);
  testing::patch_le(zip.bytes, zip.central_header_offsets[k] + testing::kCentralMethod, 2, 8);
  CHECK_REFUSED(load_refusal(zip.bytes), ErrorCode::Unsupported, "is compressed (method 8)");
}

TEST_CASE("duplicate entry names are refused", "[bad_input]") {
  // The writer refuses duplicates, so the copy is written under another name
  // of the same length and renamed in place.
  std::vector<ZipRecord> records = read_records(fixture_bytes("mlp"));
  ZipRecord copy = records[0];
  copy.name.back() = copy.name.back() == 'x' ? 'y' : 'x';
  records.push_back(copy);
  WrittenZip zip = write_zip(records);
  testing::rename_entry(zip, records.size() - 1, records[0].name);
  CHECK_REFUSED(load_refusal(zip.bytes), ErrorCode::BadFile, "duplicate entry");
}

TEST_CASE("an archive without the program entry is refused", "[bad_input]") {
  std::vector<ZipRecord> records = read_records(fixture_bytes("mlp"));
  records.erase(records.begin() + index_of(records, "serialized_exported_program.json"));
  CHECK_REFUSED(load_refusal(write_zip(records).bytes), ErrorCode::BadFile, "hostile.pt2");
}

TEST_CASE("a truncated nested state dict is refused naming it", "[bad_input]") {
  std::vector<ZipRecord> records = read_records(fixture_bytes("mlp"));
  std::string& nested = entry(records, "serialized_state_dict.pt");
  nested.resize(nested.size() / 2);
  CHECK_REFUSED(load_refusal(write_zip(records).bytes), ErrorCode::BadFile,
                "serialized_state_dict.pt");
}
