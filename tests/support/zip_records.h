// Test helpers over src/io's zip code: read a fixture archive's entries as
// records, write records back out with io/zip_writer (torch's layout: data
// 64-byte aligned, no zip64), and report where each header of the written
// archive sits so a test can damage exact fields afterwards.
//
// Ownership: plain values. Errors: read_records() lets ZipArchive's
// Error(BadFile) through; write_zip() lets ZipWriter's errors through
// (Internal for a duplicate name: tests that need one rename an entry in
// place with rename_entry()); patch_le()/rename_entry() throw
// std::out_of_range for offsets or names that do not fit.
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
                   kLocalNameLength = 26, kLocalName = 30;
constexpr uint64_t kCentralMethod = 10, kCentralCompressedSize = 20, kCentralSize = 24,
                   kCentralNameLength = 28, kCentralLocalOffset = 42, kCentralName = 46;
constexpr uint64_t kEndEntryCount = 10, kEndDirectorySize = 12, kEndDirectoryOffset = 16;

WrittenZip write_zip(const std::vector<ZipRecord>& records);

// Every entry of the archive in `bytes`, in central-directory order.
std::vector<ZipRecord> read_records(const std::vector<uint8_t>& bytes);

// Overwrites `width` (2, 4 or 8) little-endian bytes at `offset`.
void patch_le(std::vector<uint8_t>& bytes, uint64_t offset, int width, uint64_t value);

// Renames record k in both its headers; the new name must have the old one's length.
void rename_entry(WrittenZip& zip, size_t k, const std::string& name);

}  // namespace pt2web::testing
