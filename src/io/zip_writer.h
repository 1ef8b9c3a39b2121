// ZipWriter: writes a zip archive of stored (uncompressed) entries, the way
// torch's archives are laid out: optionally each entry's data starts at a
// multiple of `alignment` bytes (torch.save pads to 64 with an "FB" extra
// field, so tensors can be mapped in place). No zip64: an archive over 4 GB
// is refused.
//
// Ownership: copies the entry bytes. Errors: Error(Unsupported) for archives
// or entries beyond the 4 GB zip32 limit; Error(Internal) for a duplicate name.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace pt2web {

uint32_t crc32_of(const uint8_t* data, size_t size);

class ZipWriter {
 public:
  explicit ZipWriter(uint32_t alignment = 0) : alignment_(alignment) {}
  void add(const std::string& name, const uint8_t* data, size_t size);
  void add(const std::string& name, const std::vector<uint8_t>& data) { add(name, data.data(), data.size()); }
  void add(const std::string& name, const std::string& text) {
    add(name, reinterpret_cast<const uint8_t*>(text.data()), text.size());
  }
  // The archive bytes (central directory and end record appended).
  std::vector<uint8_t> finish();

 private:
  struct Entry {
    std::string name;
    uint32_t crc = 0;
    uint32_t size = 0;
    uint32_t offset = 0;
    uint16_t extra = 0;
  };
  uint32_t alignment_;
  std::vector<uint8_t> out_;
  std::vector<Entry> entries_;
  std::set<std::string> names_;
};

}  // namespace pt2web
