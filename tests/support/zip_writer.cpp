#include "zip_writer.h"

#include <memory>
#include <stdexcept>

#include "io/zip_archive.h"

namespace pt2web::testing {

namespace {

uint32_t crc32_of(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void append_le(std::vector<uint8_t>& out, uint64_t value, int width) {
  for (int k = 0; k < width; ++k) out.push_back(static_cast<uint8_t>(value >> (8 * k)));
}

uint32_t checked32(uint64_t value, const char* what) {
  if (value > 0xFFFFFFFEu) throw std::length_error(std::string("zip_writer: ") + what + " too large");
  return static_cast<uint32_t>(value);
}

}  // namespace

void patch_le(std::vector<uint8_t>& bytes, uint64_t offset, int width, uint64_t value) {
  if (offset + width > bytes.size()) throw std::out_of_range("patch_le: offset past the end");
  for (int k = 0; k < width; ++k) bytes[offset + k] = static_cast<uint8_t>(value >> (8 * k));
}

WrittenZip write_zip(const std::vector<ZipRecord>& records) {
  WrittenZip zip;
  std::vector<uint8_t>& out = zip.bytes;
  std::vector<uint32_t> crcs;
  for (const ZipRecord& r : records) {
    if (r.name.size() > 0xFFFF) throw std::length_error("zip_writer: name too long");
    uint64_t start = out.size();
    // Pad through an extra field (id 0xFFFF, 4-byte header) so data is 64-aligned.
    uint64_t unpadded = start + 30 + r.name.size() + 4;
    uint64_t padding = (64 - unpadded % 64) % 64;
    uint32_t crc = crc32_of(r.data);
    crcs.push_back(crc);
    append_le(out, 0x04034b50, 4);
    append_le(out, 20, 2);  // version needed
    append_le(out, 0, 2);   // flags
    append_le(out, 0, 2);   // method: stored
    append_le(out, 0, 4);   // time and date
    append_le(out, crc, 4);
    append_le(out, checked32(r.data.size(), "entry"), 4);
    append_le(out, checked32(r.data.size(), "entry"), 4);
    append_le(out, r.name.size(), 2);
    append_le(out, 4 + padding, 2);
    out.insert(out.end(), r.name.begin(), r.name.end());
    append_le(out, 0xFFFF, 2);
    append_le(out, padding, 2);
    out.insert(out.end(), padding, 0);
    zip.local_header_offsets.push_back(start);
    zip.data_offsets.push_back(out.size());
    out.insert(out.end(), r.data.begin(), r.data.end());
  }
  uint64_t directory_start = out.size();
  for (size_t k = 0; k < records.size(); ++k) {
    const ZipRecord& r = records[k];
    zip.central_header_offsets.push_back(out.size());
    append_le(out, 0x02014b50, 4);
    append_le(out, 20, 2);  // version made by
    append_le(out, 20, 2);  // version needed
    append_le(out, 0, 2);   // flags
    append_le(out, 0, 2);   // method
    append_le(out, 0, 4);   // time and date
    append_le(out, crcs[k], 4);
    append_le(out, r.data.size(), 4);
    append_le(out, r.data.size(), 4);
    append_le(out, r.name.size(), 2);
    append_le(out, 0, 2);  // extra
    append_le(out, 0, 2);  // comment
    append_le(out, 0, 2);  // disk
    append_le(out, 0, 2);  // internal attributes
    append_le(out, 0, 4);  // external attributes
    append_le(out, checked32(zip.local_header_offsets[k], "archive"), 4);
    out.insert(out.end(), r.name.begin(), r.name.end());
  }
  zip.end_record_offset = out.size();
  append_le(out, 0x06054b50, 4);
  append_le(out, 0, 2);
  append_le(out, 0, 2);
  append_le(out, records.size(), 2);
  append_le(out, records.size(), 2);
  append_le(out, checked32(zip.end_record_offset - directory_start, "directory"), 4);
  append_le(out, checked32(directory_start, "archive"), 4);
  append_le(out, 0, 2);  // comment length
  return zip;
}

std::vector<ZipRecord> read_records(const std::vector<uint8_t>& bytes) {
  auto shared = std::make_shared<const std::vector<uint8_t>>(bytes);
  ZipArchive archive = ZipArchive::open(shared, "read_records");
  std::vector<ZipRecord> records;
  for (const ZipArchive::Entry& e : archive.entries()) {
    records.push_back({e.name, archive.read_string(e.name)});
  }
  return records;
}

}  // namespace pt2web::testing
