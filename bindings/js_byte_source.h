// A ByteSource (io/byte_source.h) over the JavaScript bytes a program is
// loaded from, so the .pt2 file is never copied whole into wasm memory: the
// loader asks for the ranges it parses and the weights the program reads,
// and each read copies just that range out of the JS array. The bytes may
// also come from a reader, {byteLength, readInto(offset, target) -> '' or a
// message, close()?}: Node's open files (npm/src/file_bytes.js), read
// straight into the wasm memory where each weight lives, so no JavaScript
// buffer holds the file at all.
//
// Ownership: the source holds the caller's Uint8Array (or a view over the
// ArrayBuffer it was given, or the reader, closed when the source goes),
// keeping it alive while any deferred weight of a
// loaded program can still read it; it is read, not copied, so bytes changed
// after load() change what stateDict()/save() return for the weights no node
// reads. Threads: read it only on the thread that made it (JS values belong
// to one thread); the loader fetches every weight a run reads at load.
// Errors: Error(BadInput) when `bytes` is not an ArrayBuffer, a view of one
// or a reader; Error(BadFile) when a read finds the buffer shorter than at
// load (it was detached, transferred or resized) or a reader reports a failure.
#pragma once

#include <emscripten/val.h>

#include <memory>

#include "io/byte_source.h"

namespace pt2web::js {

std::shared_ptr<const ByteSource> js_byte_source(const emscripten::val& bytes);

}  // namespace pt2web::js
