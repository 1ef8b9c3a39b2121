// Test tool: rewrites legacy .pt2 files (torch 2.1-2.7's torch.export.save
// zip, which the chroot's torch 2.6 writes) into the PT2-archive layout that
// torch 2.8+ writes, as ../shared/docs/PT2-FORMAT.md §4 specifies, so the
// loader's PT2-archive path runs on every fixture without a newer torch.
// Written in C++ over src/io (zip reader and writer, torch.save reader and
// writer) so the test suite converts fixtures at test time with no Python;
// tools/pt2_archive_convert.cpp is its command line.
//
// What it writes under "<root>/": archive_format ("pt2"), archive_version
// ("0"), one models/<name>.json per model (the legacy program JSON, byte for
// byte), the weights and constants in one of three forms (WeightsForm),
// data/sample_inputs/<name>.pt (the legacy example inputs, possibly 0 bytes),
// extra/<file> for the legacy extra_files/<file>, then the records torch's
// PyTorchFileWriter adds at the end: .data/version ("6\n"), byteorder and a
// 40-digit .data/serialization_id. Every record's data starts at a multiple
// of 64 bytes ("FB" extra field). Raw payloads are grouped by storage: views
// of one storage share one weight_<N>/tensor_<N> file holding the whole
// storage, each with its own sizes, strides and storage_offset; file numbers
// run on across the models of one archive.
//
// Ownership: returns the bytes. Errors: lets ZipArchive/torch_load's
// Error(BadFile) through for an unreadable input; Error(BadInput) for a file
// that is not a legacy .pt2, duplicate model names or an unknown byte order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/bytes.h"

namespace pt2web::testing {

enum class WeightsForm {
  Raw,          // torch >= 2.9: raw bytes + <name>_weights_config.json (use_pickle false)
  PickledFiles, // the same configs with use_pickle true: each file a torch.save of one tensor
  PickledDict,  // torch 2.8: data/weights/<name>.pt and data/constants/<name>.pt
};

struct ArchiveModel {
  std::string name;  // "model" is what torch.export.save writes
  Bytes legacy;      // a legacy .pt2 file
};

struct ArchiveOptions {
  std::string root = "model";     // the archive's top folder (torch: the file's base name)
  WeightsForm weights = WeightsForm::Raw;
  bool big_endian = false;        // byteorder "big", raw payload elements byte-swapped
};

std::vector<uint8_t> convert_to_pt2_archive(const std::vector<ArchiveModel>& models,
                                            const ArchiveOptions& options = {});

}  // namespace pt2web::testing
