#include "zip_records.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "io/zip_archive.h"
#include "io/zip_writer.h"

namespace pt2web::testing {

namespace {

uint64_t read_le(const std::vector<uint8_t>& bytes, uint64_t offset, int width) {
  if (offset + width > bytes.size()) throw std::out_of_range("zip_records: field past the end");
  uint64_t value = 0;
  for (int k = 0; k < width; ++k) value |= uint64_t{bytes[offset + k]} << (8 * k);
  return value;
}

// Where ZipWriter put each header: the end record (no archive comment) names
// the directory, each directory entry its local header.
void locate_headers(WrittenZip& zip, size_t count) {
  const std::vector<uint8_t>& b = zip.bytes;
  zip.end_record_offset = b.size() - 22;
  uint64_t at = read_le(b, zip.end_record_offset + kEndDirectoryOffset, 4);
  for (size_t k = 0; k < count; ++k) {
    zip.central_header_offsets.push_back(at);
    uint64_t local = read_le(b, at + kCentralLocalOffset, 4);
    zip.local_header_offsets.push_back(local);
    zip.data_offsets.push_back(local + kLocalName + read_le(b, local + kLocalNameLength, 2) +
                               read_le(b, local + kLocalNameLength + 2, 2));
    at += kCentralName + read_le(b, at + kCentralNameLength, 2) + read_le(b, at + kCentralNameLength + 2, 2) +
          read_le(b, at + kCentralNameLength + 4, 2);
  }
}

}  // namespace

void patch_le(std::vector<uint8_t>& bytes, uint64_t offset, int width, uint64_t value) {
  if (offset + width > bytes.size()) throw std::out_of_range("patch_le: offset past the end");
  for (int k = 0; k < width; ++k) bytes[offset + k] = static_cast<uint8_t>(value >> (8 * k));
}

WrittenZip write_zip(const std::vector<ZipRecord>& records) {
  ZipWriter writer(64);
  for (const ZipRecord& r : records) writer.add(r.name, r.data);
  WrittenZip zip;
  zip.bytes = writer.finish();
  locate_headers(zip, records.size());
  return zip;
}

void rename_entry(WrittenZip& zip, size_t k, const std::string& name) {
  const uint64_t headers[2][2] = {{zip.local_header_offsets.at(k), kLocalNameLength},
                                  {zip.central_header_offsets.at(k), kCentralNameLength}};
  for (const auto& [header, length_field] : headers) {
    if (read_le(zip.bytes, header + length_field, 2) != name.size())
      throw std::out_of_range("rename_entry: the new name must keep the old length");
    uint64_t name_at = header + (length_field == kLocalNameLength ? kLocalName : kCentralName);
    std::copy(name.begin(), name.end(), zip.bytes.begin() + static_cast<std::ptrdiff_t>(name_at));
  }
}

std::vector<ZipRecord> read_records(const std::vector<uint8_t>& bytes) {
  auto shared = std::make_shared<const std::vector<uint8_t>>(bytes);
  ZipArchive archive = ZipArchive::open(shared, "read_records");
  std::vector<ZipRecord> records;
  for (const ZipArchive::Entry& e : archive.entries()) records.push_back({e.name, archive.read_string(e.name)});
  return records;
}

}  // namespace pt2web::testing
