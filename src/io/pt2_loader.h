// Loads a .pt2 file into an ExportedProgram: detects the archive layout
// (legacy torch.export.save zip of torch 2.1-2.7, or the PT2 archive of
// torch 2.8+ with pickled or raw weights), parses the program JSON and
// rebuilds the state dict, constants and example inputs.
//
// Ownership: weights borrow `bytes` where alignment allows (Storage keeps the
// bytes alive). Over a source that copies (a JS buffer, io/byte_source.h)
// only the ranges parsed and the weights kept are copied, once. Given
// `unread`, the state-dict entries the program does not read (not in its
// signature, such as the float originals PT2E keeps next to its int8
// weights) are not copied at all: they leave the state dict for `unread`,
// which reads them from the source when asked (and keeps it alive).
// Errors: Error(BadFile) naming the archive entry at fault;
// Error(Unsupported) for features pt2web cannot read (compressed entries,
// torchbind objects, schema majors other than 8 and earlier known ones, PT2
// archive versions other than 0, raw weights in big-endian byte order).
#pragma once

#include <functional>
#include <string>

#include <map>
#include <vector>

#include "io/torch_load.h"
#include "io/zip_archive.h"
#include "program/exported_program.h"

namespace pt2web {

struct ArchiveLayout {
  std::string kind;  // "legacy" or "pt2-archive"
  std::string program_entry;
  std::vector<std::string> models;  // the archive's model names ("model" for the legacy layout)
  std::vector<std::pair<std::string, uint64_t>> entries;  // name, size
};

// A state-dict entry left in its source: the tensor's geometry and record.
struct UnreadTensor {
  DType dtype = DType::Float32;
  Shape sizes, strides;
  int64_t storage_offset = 0;
  UnreadStorage storage;
  Tensor fetch() const;  // a copy read from the source now
};

// The entries load_pt2 left in the source, and the archive's full order.
struct UnreadState {
  std::map<std::string, UnreadTensor> tensors;
  std::vector<std::string> order;  // every state-dict name, read or not
  // Puts the unread entries back into ep's state dict (read from the
  // source now) and restores the archive's order.
  void restore(ExportedProgram& ep) const;
};

// `model`: which model of a PT2 archive to load (its models/<model>.json);
// "" takes "model" (what torch.export.save writes) or else the only one.
// Error(BadInput) names the archive's models when `model` is not among them,
// or when it is "" and the archive holds several models, none named "model".
ExportedProgram load_pt2(Bytes bytes, const std::string& label, ArchiveLayout* layout = nullptr,
                         const std::string& model = "");
// `progress`, when set, is told as the weights the program reads are copied
// out of a source that does not borrow (done, total: bytes of those weights),
// first with done = 0 and last with done = total; nothing when no weight is
// copied. What it throws propagates.
using WeightProgress = std::function<void(uint64_t done, uint64_t total)>;
ExportedProgram load_pt2(std::shared_ptr<const ByteSource> source, const std::string& label,
                         ArchiveLayout* layout = nullptr, UnreadState* unread = nullptr,
                         const std::string& model = "", const WeightProgress& progress = {});

}  // namespace pt2web
