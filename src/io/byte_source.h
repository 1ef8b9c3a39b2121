// ByteSource: where an archive's bytes come from, read a range at a time, so
// a loader copies only the ranges it needs (the zip directory, the program
// JSON, the weights a program reads) and never the whole file. Natively the
// bytes are in memory and a read borrows them; the JavaScript binding reads
// from the caller's Uint8Array and copies just the requested range
// (bindings/js_byte_source.h).
//
// Ownership: a SharedBytes keeps its bytes alive through `owner`; a source is
// shared (shared_ptr) by the archives and deferred weights that read it.
// Threads: a source is read on the thread that loads (and later on the thread
// that asks for deferred weights); the JS source must not be read elsewhere.
// Errors: read() is only called with ranges inside size() (callers check);
// a source that cannot deliver (a detached JS buffer) throws Error(BadFile).
#pragma once

#include <cstdint>
#include <memory>

#include "util/bytes.h"

namespace pt2web {

// Bytes [data, data + size) kept alive by owner.
struct SharedBytes {
  const uint8_t* data = nullptr;
  size_t size = 0;
  std::shared_ptr<const void> owner;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Bytes [offset, offset + length), which lie within size().
  virtual SharedBytes read(uint64_t offset, uint64_t length) const = 0;
  // Copies bytes [offset, offset + length), which lie within size(), to out.
  virtual void copy(uint64_t offset, uint64_t length, uint8_t* out) const;
  // Whether read() borrows memory that already exists (no copy is made).
  virtual bool borrows() const = 0;
};

// A source over bytes in memory; reads borrow them. `bytes` must not be null.
std::shared_ptr<const ByteSource> memory_source(Bytes bytes);

}  // namespace pt2web
