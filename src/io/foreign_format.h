// Recognises files that people hand to pt2web by mistake: models and
// checkpoints of other formats (ONNX, TorchScript, a plain torch.save
// checkpoint, safetensors, GGUF, TFLite, HDF5/Keras). The loader uses the
// name in its BadFile error, so the message says what the file is and how
// to get a torch.export program instead of "not a zip archive".
//
// Ownership: reads the bytes or the archive it is given, keeps nothing.
// Errors: none; a file it does not recognise gives "".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/zip_archive.h"

namespace pt2web {

// What a file that is not a zip archive is ("an ONNX model", ...), or "".
// data holds the file's first `size` bytes (a few kilobytes are enough) of
// `total` (the whole file by default).
std::string foreign_file_kind(const uint8_t* data, size_t size, uint64_t total = UINT64_MAX);

// What a zip archive that holds no torch.export program is ("a TorchScript
// archive (torch.jit.save)", ...), or "".
std::string foreign_zip_kind(const ZipArchive& archive);

// The advice that follows a recognised kind in error messages.
const char* foreign_format_advice();

}  // namespace pt2web
