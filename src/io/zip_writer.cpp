#include "io/zip_writer.h"

#include <array>
#include <limits>

#include "util/error.h"

namespace pt2web {

namespace {

const std::array<uint32_t, 256>& crc_table() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  return table;
}

void put16(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v));
  o.push_back(static_cast<uint8_t>(v >> 8));
}
void put32(std::vector<uint8_t>& o, uint32_t v) {
  put16(o, v & 0xFFFF);
  put16(o, v >> 16);
}

constexpr uint32_t kDosDate = (0 << 9) | (1 << 5) | 1;  // 1980-01-01, as zipfile writes for no date

uint32_t checked32(size_t v, const std::string& what) {
  if (v > std::numeric_limits<uint32_t>::max())
    fail(ErrorCode::Unsupported, what, " is larger than 4 GB; pt2web writes zip32 archives only");
  return static_cast<uint32_t>(v);
}

}  // namespace

uint32_t crc32_of(const uint8_t* data, size_t size) {
  uint32_t c = 0xFFFFFFFFu;
  const auto& t = crc_table();
  for (size_t i = 0; i < size; ++i) c = t[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void ZipWriter::add(const std::string& name, const uint8_t* data, size_t size) {
  if (!names_.insert(name).second) fail(ErrorCode::Internal, "zip entry '", name, "' written twice");
  Entry e;
  e.name = name;
  e.crc = crc32_of(data, size);
  e.size = checked32(size, "entry '" + name + "'");
  e.offset = checked32(out_.size(), "archive");
  size_t header_end = out_.size() + 30 + name.size();
  if (alignment_ > 0) {
    size_t with_field = header_end + 4;
    size_t pad = (alignment_ - with_field % alignment_) % alignment_;
    e.extra = static_cast<uint16_t>(4 + pad);
  }
  put32(out_, 0x04034b50);
  put16(out_, 20);  // version needed: 2.0
  put16(out_, 0);   // flags
  put16(out_, 0);   // stored
  put16(out_, 0);   // time
  put16(out_, kDosDate);
  put32(out_, e.crc);
  put32(out_, e.size);
  put32(out_, e.size);
  put16(out_, static_cast<uint32_t>(name.size()));
  put16(out_, e.extra);
  out_.insert(out_.end(), name.begin(), name.end());
  if (e.extra) {
    put16(out_, 0x4246);  // "FB": torch's padding field
    put16(out_, e.extra - 4u);
    out_.insert(out_.end(), e.extra - 4u, 0);
  }
  out_.insert(out_.end(), data, data + size);
  entries_.push_back(std::move(e));
}

std::vector<uint8_t> ZipWriter::finish() {
  uint32_t directory = checked32(out_.size(), "archive");
  for (const Entry& e : entries_) {
    put32(out_, 0x02014b50);
    put16(out_, 20);  // made by
    put16(out_, 20);  // needed
    put16(out_, 0);
    put16(out_, 0);
    put16(out_, 0);
    put16(out_, kDosDate);
    put32(out_, e.crc);
    put32(out_, e.size);
    put32(out_, e.size);
    put16(out_, static_cast<uint32_t>(e.name.size()));
    put16(out_, 0);  // no extra field in the central directory
    put16(out_, 0);  // comment
    put16(out_, 0);  // disk
    put16(out_, 0);  // internal attributes
    put32(out_, 0);  // external attributes
    put32(out_, e.offset);
    out_.insert(out_.end(), e.name.begin(), e.name.end());
  }
  uint32_t directory_size = checked32(out_.size() - directory, "central directory");
  if (entries_.size() > 0xFFFF) fail(ErrorCode::Unsupported, "more than 65535 zip entries");
  put32(out_, 0x06054b50);
  put16(out_, 0);
  put16(out_, 0);
  put16(out_, static_cast<uint32_t>(entries_.size()));
  put16(out_, static_cast<uint32_t>(entries_.size()));
  put32(out_, directory_size);
  put32(out_, directory);
  put16(out_, 0);
  std::vector<uint8_t> result = std::move(out_);
  out_.clear();
  entries_.clear();
  names_.clear();
  return result;
}

}  // namespace pt2web
