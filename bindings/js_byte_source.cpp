#include "js_byte_source.h"

#include <vector>

#include "js_util.h"
#include "util/error.h"

namespace pt2web::js {

using emscripten::val;

namespace {

class JsByteSource final : public ByteSource {
 public:
  explicit JsByteSource(val bytes) : bytes_(std::move(bytes)), size_(js_length(bytes_)) {}

  uint64_t size() const override { return size_; }

  SharedBytes read(uint64_t offset, uint64_t length) const override {
    auto copy = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(length));
    this->copy(offset, length, copy->data());
    return {copy->data(), copy->size(), copy};
  }

  void copy(uint64_t offset, uint64_t length, uint8_t* out) const override {
    PT2WEB_CHECK(offset <= size_ && length <= size_ - offset, "a read of ", length,
                 " bytes at offset ", offset, " outside ", size_, " bytes");
    if (length == 0) return;
    // A detached buffer reads as empty (and subarray() of it would throw
    // into JavaScript), so the length is checked first.
    size_t left = js_length(bytes_);
    if (left != size_)
      fail(ErrorCode::BadFile, "the program's bytes are no longer what load() was given (", left, " of ", size_,
           " bytes left: the ArrayBuffer was detached, transferred or resized); weights no node reads are read ",
           "from them when asked for");
    val range = bytes_.call<val>("subarray", static_cast<double>(offset), static_cast<double>(offset + length));
    copy_from_js(range, out, static_cast<size_t>(length));
  }

  bool borrows() const override { return false; }

 private:
  val bytes_;  // a Uint8Array
  uint64_t size_;
};

}  // namespace

std::shared_ptr<const ByteSource> js_byte_source(const val& bytes) {
  val view = bytes;
  if (bytes.instanceof(val::global("ArrayBuffer"))) {
    view = val::global("Uint8Array").new_(bytes);
  } else if (val::global("ArrayBuffer").call<bool>("isView", bytes)) {
    view = byte_view(bytes);
  } else {
    fail(ErrorCode::BadInput, "program bytes must be a Uint8Array, another ArrayBuffer view or an ArrayBuffer");
  }
  return std::make_shared<JsByteSource>(std::move(view));
}

}  // namespace pt2web::js
