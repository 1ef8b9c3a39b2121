// Reads torch.save archives (the state dict, constants and example inputs of
// a .pt2) into PyValues, like torch.load(weights_only=True): a restricted
// unpickler that rebuilds tensors, parameters, storages, (ordered) dicts and
// plain containers, and rejects every other global.
//
// Mapping to PyValue: dict and OrderedDict -> Dict (insertion order); tuple
// and torch.Size -> Tuple; list, set and frozenset -> List; bytes -> Str of
// the raw bytes; dtype globals -> Str of the dtype name ("float32");
// torch.device -> Str ("cpu", "cuda:0"); tensors and parameters -> Tensor.
//
// Ownership: over a source that borrows (memory), tensors borrow their bytes
// (keeping them alive) when the storage is little-endian and aligned to the
// element size, and own a copy otherwise (KeepMisaligned leaves misaligned
// storages borrowed: the caller aligns the tensors it will compute with, see
// tensor/alignment.h). Over a source that copies (a JS buffer), each record
// is copied once, 16-byte aligned; or, when the caller passes `unread`, not
// at all: its tensors get a placeholder storage without bytes, listed in
// `unread`, which the caller must replace (copy_record) or drop before
// anything reads the tensors (io/pt2_loader.cpp settles them).
// Tensors sharing a storage record share a Storage.
// Errors: Error(BadFile) naming `archive.label()`, the pickle offset and what
// was found (an unknown opcode, a global outside the allowlist, a missing
// storage record, a storage too small for its tensor, an int beyond int64).
// Errors of the zip itself come from ZipArchive.
#pragma once

#include <memory>
#include <vector>

#include "io/zip_archive.h"
#include "program/py_value.h"

namespace pt2web {

// Loads "<root>/data.pkl" and its storages "<root>/data/<key>", where <root>
// is the archive's single top-level folder (torch uses "archive" for buffers).
enum class StorageAlignment { CopyMisaligned, KeepMisaligned };

// A storage record left in the source: `placeholder` (no bytes, nbytes
// long) stands for bytes [offset, offset + nbytes) of `source`.
struct UnreadStorage {
  std::shared_ptr<Storage> placeholder;
  std::shared_ptr<const ByteSource> source;
  uint64_t offset = 0;
  uint64_t nbytes = 0;
};

PyValue torch_load(const ZipArchive& archive, StorageAlignment alignment = StorageAlignment::CopyMisaligned,
                   std::vector<UnreadStorage>* unread = nullptr);

// A 16-byte aligned copy of bytes [offset, offset + nbytes) of source.
std::shared_ptr<Storage> copy_record(const ByteSource& source, uint64_t offset, uint64_t nbytes);

}  // namespace pt2web
