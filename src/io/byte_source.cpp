#include "io/byte_source.h"

#include <cstring>

#include "util/error.h"

namespace pt2web {

void ByteSource::copy(uint64_t offset, uint64_t length, uint8_t* out) const {
  SharedBytes bytes = read(offset, length);
  if (length != 0) std::memcpy(out, bytes.data, static_cast<size_t>(length));
}

namespace {

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(Bytes bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_->size(); }
  SharedBytes read(uint64_t offset, uint64_t length) const override {
    PT2WEB_CHECK(offset <= bytes_->size() && length <= bytes_->size() - offset,
                 "a read of ", length, " bytes at offset ", offset, " outside ", bytes_->size(), " bytes");
    return {bytes_->data() + offset, static_cast<size_t>(length), bytes_};
  }
  bool borrows() const override { return true; }

 private:
  Bytes bytes_;
};

}  // namespace

std::shared_ptr<const ByteSource> memory_source(Bytes bytes) {
  PT2WEB_CHECK(bytes != nullptr, "memory_source of no bytes");
  return std::make_shared<MemorySource>(std::move(bytes));
}

}  // namespace pt2web
