#include "js_byte_source.h"

#include <string>
#include <vector>

#include "js_util.h"
#include "util/error.h"

namespace pt2web::js {

using emscripten::val;

namespace {

// Both sources hand out copies, so read() is copy() into a fresh buffer.
class CopyingSource : public ByteSource {
 public:
  explicit CopyingSource(uint64_t size) : size_(size) {}

  uint64_t size() const override { return size_; }

  SharedBytes read(uint64_t offset, uint64_t length) const override {
    auto copy = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(length));
    this->copy(offset, length, copy->data());
    return {copy->data(), copy->size(), copy};
  }

  void copy(uint64_t offset, uint64_t length, uint8_t* out) const override {
    PT2WEB_CHECK(offset <= size_ && length <= size_ - offset, "a read of ", length,
                 " bytes at offset ", offset, " outside ", size_, " bytes");
    if (length != 0) copy_range(offset, length, out);
  }

  bool borrows() const override { return false; }

 protected:
  virtual void copy_range(uint64_t offset, uint64_t length, uint8_t* out) const = 0;

 private:
  uint64_t size_;
};

// The caller's bytes (a Uint8Array), read range by range.
class JsArraySource final : public CopyingSource {
 public:
  explicit JsArraySource(val bytes) : CopyingSource(js_length(bytes)), bytes_(std::move(bytes)) {}

 private:
  void copy_range(uint64_t offset, uint64_t length, uint8_t* out) const override {
    // A detached buffer reads as empty (and subarray() of it would throw
    // into JavaScript), so the length is checked first.
    size_t left = js_length(bytes_);
    if (left != size())
      fail(ErrorCode::BadFile, "the program's bytes are no longer what load() was given (", left, " of ", size(),
           " bytes left: the ArrayBuffer was detached, transferred or resized); weights no node reads are read ",
           "from them when asked for");
    val range = bytes_.call<val>("subarray", static_cast<double>(offset), static_cast<double>(offset + length));
    copy_from_js(range, out, static_cast<size_t>(length));
  }

  val bytes_;
};

// A reader object ({byteLength, readInto(offset, target), close()}, e.g. an
// open file in Node): each range is read straight into wasm memory.
class JsReaderSource final : public CopyingSource {
 public:
  explicit JsReaderSource(val reader)
      : CopyingSource(static_cast<uint64_t>(reader["byteLength"].as<double>())), reader_(std::move(reader)) {}

  ~JsReaderSource() override {
    if (type_of(reader_["close"]) == "function") reader_.call<void>("close");
  }

 private:
  void copy_range(uint64_t offset, uint64_t length, uint8_t* out) const override {
    val target(emscripten::typed_memory_view(static_cast<size_t>(length), out));
    // readInto reports a failure as a message rather than throwing: a JS
    // exception would unwind through C++ frames that cannot catch it.
    std::string problem = reader_.call<std::string>("readInto", static_cast<double>(offset), target);
    if (!problem.empty()) fail(ErrorCode::BadFile, problem);
  }

  val reader_;
};

}  // namespace

std::shared_ptr<const ByteSource> js_byte_source(const val& bytes) {
  if (bytes.instanceof(val::global("ArrayBuffer")))
    return std::make_shared<JsArraySource>(val::global("Uint8Array").new_(bytes));
  if (val::global("ArrayBuffer").call<bool>("isView", bytes)) return std::make_shared<JsArraySource>(byte_view(bytes));
  if (type_of(bytes) == "object" && !bytes.isNull() && type_of(bytes["readInto"]) == "function" &&
      type_of(bytes["byteLength"]) == "number")
    return std::make_shared<JsReaderSource>(bytes);
  fail(ErrorCode::BadInput,
       "program bytes must be a Uint8Array, another ArrayBuffer view, an ArrayBuffer or a reader "
       "({byteLength, readInto(offset, target)})");
}

}  // namespace pt2web::js
