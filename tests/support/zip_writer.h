// Writes stored (uncompressed) ZIP archives for tests and fuzz harnesses, and
// reads an archive's entries back as records, so a test can take a fixture,
// change one entry and write it out again.
//
// The layout is torch's: each entry's data starts at a multiple of 64 bytes
// (local extra-field padding), no data descriptors, no zip64. WrittenZip says
// where every header sits so tests can damage exact fields afterwards.
// Ownership: plain values. Errors: read_records() lets ZipArchive's
// Error(BadFile) through; write_zip() throws std::length_error when a
// name or entry does not fit the classic (32-bit) format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pt2web::testing {

struct ZipRecord {
  std::string name;
  std::string data;
};

struct WrittenZip {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> local_header_offsets;    // one per record, in order
  std::vector<uint64_t> data_offsets;            // first data byte of each record
  std::vector<uint64_t> central_header_offsets;  // one per record, in order
  uint64_t end_record_offset = 0;                // "PK\5\6"
};

// Offsets of fields inside the headers (little-endian, from the header start).
constexpr uint64_t kLocalMethod = 8, kLocalCompressedSize = 18, kLocalSize = 22,
                   kLocalNameLength = 26;
constexpr uint64_t kCentralMethod = 10, kCentralCompressedSize = 20, kCentralSize = 24,
                   kCentralNameLength = 28, kCentralLocalOffset = 42;
constexpr uint64_t kEndEntryCount = 10, kEndDirectorySize = 12, kEndDirectoryOffset = 16;

WrittenZip write_zip(const std::vector<ZipRecord>& records);

// Every entry of the archive in `bytes`, in central-directory order.
std::vector<ZipRecord> read_records(const std::vector<uint8_t>& bytes);

// Overwrites `width` (2, 4 or 8) little-endian bytes at `offset`.
void patch_le(std::vector<uint8_t>& bytes, uint64_t offset, int width, uint64_t value);

}  // namespace pt2web::testing
