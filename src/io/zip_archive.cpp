#include "io/zip_archive.h"

#include <algorithm>

#include "util/error.h"

namespace pt2web {
namespace {

// Record signatures and fixed sizes from the ZIP application note (APPNOTE).
constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr uint32_t kCentralHeaderSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kZip64EndSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;

constexpr uint64_t kLocalHeaderSize = 30;
constexpr uint64_t kCentralHeaderSize = 46;
constexpr uint64_t kEndSize = 22;
constexpr uint64_t kZip64LocatorSize = 20;
constexpr uint64_t kZip64EndSize = 56;
constexpr uint64_t kMaxCommentSize = 0xFFFF;
constexpr uint64_t kNearTail = 1024;

// 32-bit (and 16-bit) fields holding this value defer to the zip64 records.
constexpr uint32_t kSaturated32 = 0xFFFFFFFF;
constexpr uint16_t kSaturated16 = 0xFFFF;

// A bounds-checked little-endian reader over the archive's range of a
// ByteSource. Positions are relative to the start of the archive; every read
// checks that it lies inside the range and throws BadFile naming the label
// when it does not. The bytes are fetched a window at a time (a window holds
// at least `window` bytes from the position read, or the range prefetch()
// asks for), so a reader over a JS buffer copies only what it parses.
class View {
 public:
  View(const ByteSource& source, uint64_t base, uint64_t size, const std::string& label,
       uint64_t window = 4096)
      : source_(source), base_(base), size_(size), label_(label), window_(window) {}

  uint64_t size() const { return size_; }

  bool has(uint64_t pos, uint64_t len) const { return pos <= size_ && len <= size_ - pos; }

  void need(uint64_t pos, uint64_t len, const char* what) const {
    if (!has(pos, len))
      bad("truncated or corrupt archive: ", what, " at offset ", pos, " (", len,
          " bytes) extends past the end of the ", size_, "-byte archive");
  }

  // Fetches [begin, end) (inside the range) as the current window.
  void prefetch(uint64_t begin, uint64_t end) const {
    bytes_ = source_.read(base_ + begin, end - begin);
    begin_ = begin;
  }

  uint16_t u16(uint64_t pos, const char* what) const {
    const uint8_t* p = at(pos, 2, what);
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
  }
  uint32_t u32(uint64_t pos, const char* what) const {
    const uint8_t* p = at(pos, 4, what);
    uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | p[k];
    return v;
  }
  uint64_t u64(uint64_t pos, const char* what) const {
    const uint8_t* p = at(pos, 8, what);
    uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = (v << 8) | p[k];
    return v;
  }
  std::string str(uint64_t pos, uint64_t len, const char* what) const {
    if (len == 0) {
      need(pos, 0, what);
      return {};
    }
    const uint8_t* p = at(pos, len, what);
    return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(len));
  }

  template <typename... Parts>
  [[noreturn]] void bad(const Parts&... parts) const {
    fail(ErrorCode::BadFile, label_, ": ", parts...);
  }

 private:
  // The bytes [pos, pos + len), checked to lie in the archive, fetched into
  // the window when they are not in it yet.
  const uint8_t* at(uint64_t pos, uint64_t len, const char* what) const {
    need(pos, len, what);
    bool inside = bytes_.data != nullptr && pos >= begin_ && len <= bytes_.size &&
                  pos - begin_ <= bytes_.size - len;
    if (!inside) prefetch(pos, pos + std::min(std::max(len, window_), size_ - pos));
    return bytes_.data + (pos - begin_);
  }

  const ByteSource& source_;
  uint64_t base_;
  uint64_t size_;
  const std::string& label_;
  uint64_t window_;
  mutable SharedBytes bytes_;  // the current window: archive bytes from begin_
  mutable uint64_t begin_ = 0;
};

// Where the central directory is, from the (zip64) end records.
struct Directory {
  uint64_t entries = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

// Finds the end-of-central-directory record by scanning backwards over an
// optional trailing comment; the last signature whose comment fits wins.
uint64_t find_end_record(const View& view) {
  if (view.size() < kEndSize)
    view.bad("not a zip archive: ", view.size(), " bytes is smaller than an end record");
  uint64_t last = view.size() - kEndSize;
  uint64_t stop = last > kMaxCommentSize ? last - kMaxCommentSize : 0;
  // Archives rarely carry a comment (torch writes none): the last kilobyte
  // is fetched first, and the whole range a comment allows only if the
  // record is not there.
  uint64_t near = std::max(stop, last > kNearTail ? last - kNearTail : 0);
  for (uint64_t from : {near, stop}) {
    view.prefetch(from, view.size());
    for (uint64_t pos = from == near ? last : near - 1;; --pos) {
      if (view.u32(pos, "end record") == kEndSig) {
        uint64_t comment = view.u16(pos + 20, "end record comment length");
        if (comment <= view.size() - pos - kEndSize) return pos;
      }
      if (pos == from) break;
    }
    if (from == stop) break;
  }
  view.bad("not a zip archive, or truncated: no end-of-central-directory record");
}

Directory read_directory(const View& view) {
  uint64_t end = find_end_record(view);
  Directory dir;
  dir.entries = view.u16(end + 10, "end record");
  dir.size = view.u32(end + 12, "end record");
  dir.offset = view.u32(end + 16, "end record");

  bool locator = end >= kZip64LocatorSize &&
                 view.u32(end - kZip64LocatorSize, "zip64 locator") == kZip64LocatorSig;
  if (locator) {
    uint64_t record = view.u64(end - kZip64LocatorSize + 8, "zip64 locator");
    view.need(record, kZip64EndSize, "zip64 end record");
    if (view.u32(record, "zip64 end record") != kZip64EndSig)
      view.bad("corrupt archive: no zip64 end record at offset ", record,
               " where the zip64 locator points");
    dir.entries = view.u64(record + 32, "zip64 end record");
    dir.size = view.u64(record + 40, "zip64 end record");
    dir.offset = view.u64(record + 48, "zip64 end record");
  } else if (dir.entries == kSaturated16 || dir.size == kSaturated32 ||
             dir.offset == kSaturated32) {
    view.bad("corrupt archive: the end record defers to zip64 but there is no zip64 locator");
  }

  view.need(dir.offset, dir.size, "central directory");
  if (dir.entries > dir.size / kCentralHeaderSize)
    view.bad("corrupt archive: a central directory of ", dir.size, " bytes cannot hold ",
             dir.entries, " entries");
  view.prefetch(dir.offset, dir.offset + dir.size);
  return dir;
}

// Replaces saturated 32-bit sizes and offset with the 64-bit values of the
// zip64 extra field, which stores only the saturated ones, in this order.
void apply_zip64_extra(const View& view, uint64_t pos, uint64_t len, const std::string& name,
                       ZipArchive::Entry& entry, uint64_t& local_offset) {
  uint64_t end = pos + len;
  bool found = false;
  while (end - pos >= 4) {
    uint16_t id = view.u16(pos, "extra field");
    uint64_t size = view.u16(pos + 2, "extra field");
    pos += 4;
    if (size > end - pos)
      view.bad("corrupt extra field of entry '", name, "': ", size, " bytes do not fit");
    if (id == kZip64ExtraId) {
      found = true;
      uint64_t field = pos;
      auto take = [&](uint64_t& value) {
        if (value != kSaturated32) return;
        if (field + 8 > pos + size)
          view.bad("zip64 extra field of entry '", name, "' is too short");
        value = view.u64(field, "zip64 extra field");
        field += 8;
      };
      take(entry.size);
      take(entry.compressed_size);
      take(local_offset);
    }
    pos += size;
  }
  if (!found && (entry.size == kSaturated32 || entry.compressed_size == kSaturated32 ||
                 local_offset == kSaturated32))
    view.bad("entry '", name, "' needs a zip64 extra field but has none");
}

// Reads the local header of an entry and returns where its data starts. The
// local name and extra lengths may differ from the central ones (torch pads
// the local extra field to align data), so they are read here.
uint64_t local_data_offset(const View& view, uint64_t header, const ZipArchive::Entry& entry) {
  view.need(header, kLocalHeaderSize, "local header");
  if (view.u32(header, "local header") != kLocalHeaderSig)
    view.bad("corrupt archive: no local header at offset ", header, " for entry '", entry.name,
             "'");
  uint64_t name_len = view.u16(header + 26, "local header");
  uint64_t extra_len = view.u16(header + 28, "local header");
  std::string local_name = view.str(header + kLocalHeaderSize, name_len, "local header name");
  if (local_name != entry.name)
    view.bad("corrupt archive: local header name '", local_name,
             "' differs from central directory name '", entry.name, "'");
  uint64_t data = header + kLocalHeaderSize + name_len + extra_len;
  if (!view.has(data, entry.compressed_size))
    view.bad("truncated or corrupt archive: data of entry '", entry.name, "' (",
             entry.compressed_size, " bytes at offset ", data, ") extends past the end of the ",
             view.size(), "-byte archive");
  return data;
}

// Parses the central directory header at `pos`; returns the header's length
// and sets `local_offset` to where the entry's local header starts.
// Local headers are read through `locals`, a reader of its own, so the
// directory's window stays in place.
uint64_t read_central_entry(const View& view, const View& locals, uint64_t pos, uint64_t dir_end,
                            uint64_t index, ZipArchive::Entry& entry, uint64_t& local_offset) {
  if (dir_end - pos < kCentralHeaderSize)
    view.bad("corrupt archive: central directory entry ", index, " is truncated");
  if (view.u32(pos, "central directory") != kCentralHeaderSig)
    view.bad("corrupt archive: bad signature of central directory entry ", index, " at offset ",
             pos);
  entry.method = view.u16(pos + 10, "central directory");
  entry.crc32 = view.u32(pos + 16, "central directory");
  entry.compressed_size = view.u32(pos + 20, "central directory");
  entry.size = view.u32(pos + 24, "central directory");
  uint64_t name_len = view.u16(pos + 28, "central directory");
  uint64_t extra_len = view.u16(pos + 30, "central directory");
  uint64_t comment_len = view.u16(pos + 32, "central directory");
  local_offset = view.u32(pos + 42, "central directory");

  uint64_t length = kCentralHeaderSize + name_len + extra_len + comment_len;
  if (length > dir_end - pos)
    view.bad("corrupt archive: central directory entry ", index,
             " extends past the end of the central directory");
  entry.name = view.str(pos + kCentralHeaderSize, name_len, "entry name");
  apply_zip64_extra(view, pos + kCentralHeaderSize + name_len, extra_len, entry.name, entry,
                    local_offset);
  if (entry.method == 0 && entry.size != entry.compressed_size)
    view.bad("corrupt archive: stored entry '", entry.name, "' has size ", entry.size,
             " but compressed size ", entry.compressed_size);
  entry.data_offset = local_data_offset(locals, local_offset, entry);
  return length;
}

// A record: an entry's local header through the end of its data.
struct RecordSpan {
  uint64_t begin = 0;
  uint64_t end = 0;
  const std::string* name = nullptr;
};

// Real archives lay records out one after another; records that share bytes
// (a zip-bomb trick, or a corrupt directory) are refused.
void check_no_overlap(const View& view, std::vector<RecordSpan> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const RecordSpan& a, const RecordSpan& b) { return a.begin < b.begin; });
  for (size_t k = 1; k < spans.size(); ++k)
    if (spans[k].begin < spans[k - 1].end)
      view.bad("corrupt archive: entries '", *spans[k - 1].name, "' (bytes ", spans[k - 1].begin,
               " to ", spans[k - 1].end, ") and '", *spans[k].name, "' (from byte ", spans[k].begin,
               ") overlap");
}

}  // namespace

ZipArchive ZipArchive::open(Bytes bytes, std::string label, uint64_t offset, uint64_t length) {
  if (!bytes) fail(ErrorCode::BadFile, label, ": no bytes to open as a zip archive");
  return open(memory_source(std::move(bytes)), std::move(label), offset, length);
}

ZipArchive ZipArchive::open(std::shared_ptr<const ByteSource> source, std::string label,
                            uint64_t offset, uint64_t length) {
  if (!source) fail(ErrorCode::BadFile, label, ": no bytes to open as a zip archive");
  uint64_t total = source->size();
  if (offset > total)
    fail(ErrorCode::BadFile, label, ": archive offset ", offset, " is past the end of ", total,
         " bytes");
  if (length == UINT64_MAX) length = total - offset;
  if (length > total - offset)
    fail(ErrorCode::BadFile, label, ": archive range of ", length, " bytes at offset ", offset,
         " exceeds the ", total, " available bytes");

  ZipArchive archive;
  archive.source_ = std::move(source);
  archive.label_ = std::move(label);
  View view(*archive.source_, offset, length, archive.label_);
  View locals(*archive.source_, offset, length, archive.label_, 1);  // exact reads: no entry data

  Directory dir = read_directory(view);
  archive.entries_.reserve(static_cast<size_t>(dir.entries));
  uint64_t pos = dir.offset;
  uint64_t dir_end = dir.offset + dir.size;
  std::vector<std::pair<uint64_t, uint64_t>> records;  // local header, data end
  records.reserve(static_cast<size_t>(dir.entries));
  for (uint64_t k = 0; k < dir.entries; ++k) {
    Entry entry;
    uint64_t local_offset = 0;
    pos += read_central_entry(view, locals, pos, dir_end, k, entry, local_offset);
    records.emplace_back(local_offset, entry.data_offset + entry.compressed_size);
    entry.data_offset += offset;
    if (!archive.index_.emplace(entry.name, archive.entries_.size()).second)
      view.bad("corrupt archive: duplicate entry '", entry.name, "'");
    archive.entries_.push_back(std::move(entry));
  }
  std::vector<RecordSpan> spans;
  for (size_t k = 0; k < records.size(); ++k)
    spans.push_back({records[k].first, records[k].second, &archive.entries_[k].name});
  check_no_overlap(view, std::move(spans));
  return archive;
}

const ZipArchive::Entry* ZipArchive::find(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

const ZipArchive::Entry& ZipArchive::stored_entry(const std::string& name) const {
  const Entry* entry = find(name);
  if (entry == nullptr) fail(ErrorCode::BadFile, label_, ": no entry '", name, "'");
  if (entry->method != 0)
    fail(ErrorCode::Unsupported, label_, ": entry '", name, "' is compressed (method ",
         entry->method, "); only stored entries can be read");
  return *entry;
}

SharedBytes ZipArchive::read(const std::string& name) const {
  const Entry& entry = stored_entry(name);
  return source_->read(entry.data_offset, entry.size);
}

std::string ZipArchive::read_string(const std::string& name) const {
  SharedBytes span = read(name);
  return std::string(reinterpret_cast<const char*>(span.data), span.size);
}

ZipArchive ZipArchive::open_nested(const std::string& name) const {
  const Entry& entry = stored_entry(name);
  return open(source_, label_ + ":" + name, entry.data_offset, entry.size);
}

}  // namespace pt2web
