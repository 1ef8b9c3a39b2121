// Read-only ZIP archive over a ByteSource (the .pt2 file, in memory or in a
// JS buffer, or a torch.save zip nested inside it as a stored entry). Opening
// reads only the end records, the central directory and the local headers;
// each entry's data is read from the source when asked for.
//
// Supports what torch writes: stored (method 0) entries, data descriptors,
// zip64 end records and extra fields. Sizes always come from the central
// directory; data offsets from the local headers. Compressed entries are
// listed but reading one throws Error(Unsupported).
//
// Ownership: the archive shares ownership of the source; the bytes read()
// returns stay valid while their SharedBytes owner lives (for a memory
// source, a borrowed span of it; for a JS source, a copy of the range).
// Errors: malformed archives (truncated, corrupt offsets or sizes, duplicate
// names) throw Error(BadFile) from open() naming `label` and what is wrong;
// read() of an absent entry throws BadFile, of a compressed one Unsupported.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/byte_source.h"

namespace pt2web {


class ZipArchive {
 public:
  struct Entry {
    std::string name;
    uint64_t data_offset = 0;  // absolute offset in the underlying bytes
    uint64_t size = 0;         // uncompressed size
    uint64_t compressed_size = 0;
    uint16_t method = 0;       // 0 stored, 8 deflate, ...
    uint32_t crc32 = 0;
  };

  // Opens bytes[offset, offset+length) (clamped to the end of bytes when
  // length is UINT64_MAX). Offsets inside the archive are relative to
  // `offset`. label names the archive in errors.
  static ZipArchive open(std::shared_ptr<const ByteSource> source, std::string label,
                         uint64_t offset = 0, uint64_t length = UINT64_MAX);
  // The same over bytes in memory (memory_source).
  static ZipArchive open(Bytes bytes, std::string label, uint64_t offset = 0,
                         uint64_t length = UINT64_MAX);

  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(const std::string& name) const;  // nullptr when absent
  bool contains(const std::string& name) const { return find(name) != nullptr; }

  // The entry's data, read from the source. Throws BadFile when absent.
  SharedBytes read(const std::string& name) const;
  std::string read_string(const std::string& name) const;
  // A stored entry that is itself a ZIP (torch.save blobs inside a legacy .pt2).
  // It shares this archive's source; its label is "<label>:<name>".
  ZipArchive open_nested(const std::string& name) const;

  const std::shared_ptr<const ByteSource>& source() const { return source_; }
  const std::string& label() const { return label_; }
  // The entry, checked as read() checks it (absent: BadFile; compressed:
  // Unsupported), without reading its data.
  const Entry& stored_entry(const std::string& name) const;

 private:

  std::shared_ptr<const ByteSource> source_;
  std::string label_;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, size_t> index_;  // name -> position in entries_
};

}  // namespace pt2web
