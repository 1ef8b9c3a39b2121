#include "io/foreign_format.h"

#include <cstring>

namespace pt2web {

namespace {

bool starts_with(const uint8_t* data, size_t size, const char* magic, size_t offset = 0) {
  size_t length = std::strlen(magic);
  return size >= offset + length && std::memcmp(data + offset, magic, length) == 0;
}

// An ONNX ModelProto begins with field 1 (ir_version, a small varint: tag
// byte 0x08), followed by another field of the message: producer_name,
// producer_version, domain, model_version, doc_string, graph, opset_import.
bool looks_like_onnx(const uint8_t* data, size_t size) {
  if (size < 4 || data[0] != 0x08 || data[1] == 0 || data[1] > 32) return false;
  uint8_t tag = data[2];
  int field = tag >> 3, wire = tag & 7;
  return field >= 2 && field <= 8 && (wire == 0 || wire == 2);
}

// safetensors: an 8-byte little-endian header length, then a JSON object.
bool looks_like_safetensors(const uint8_t* data, size_t size, uint64_t total) {
  if (size < 10) return false;
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | data[i];
  return length > 1 && length <= total - 8 && data[8] == '{';
}

// Entries of the archive's top folder (torch writes "<name>/...") or root.
bool has_entry(const ZipArchive& archive, const std::string& suffix) {
  for (const auto& e : archive.entries()) {
    size_t slash = e.name.find('/');
    std::string rest = slash == std::string::npos ? e.name : e.name.substr(slash + 1);
    if (e.name == suffix || rest == suffix || (suffix.back() == '/' && rest.rfind(suffix, 0) == 0)) return true;
  }
  return false;
}

}  // namespace

std::string foreign_file_kind(const uint8_t* data, size_t size, uint64_t total) {
  if (total == UINT64_MAX) total = size;
  if (starts_with(data, size, "PK")) return "";
  if (looks_like_onnx(data, size)) return "an ONNX model";
  if (starts_with(data, size, "GGUF")) return "a GGUF model (llama.cpp)";
  if (starts_with(data, size, "TFL3", 4)) return "a TensorFlow Lite model";
  if (starts_with(data, size, "\x89HDF\r\n\x1a\n")) return "an HDF5 file (Keras .h5 weights?)";
  if (size >= 2 && data[0] == 0x80 && data[1] >= 2 && data[1] <= 5)
    return "a Python pickle (torch.save's legacy format?)";
  if (looks_like_safetensors(data, size, total)) return "a safetensors file (weights only, no program)";
  return "";
}

std::string foreign_zip_kind(const ZipArchive& archive) {
  if (has_entry(archive, "code/") || has_entry(archive, "constants.pkl"))
    return "a TorchScript archive (torch.jit.save)";
  if (has_entry(archive, "data.pkl")) return "a torch.save checkpoint (tensors or objects, no program)";
  if (has_entry(archive, "config.json") && has_entry(archive, "model.weights.h5")) return "a Keras model";
  return "";
}

const char* foreign_format_advice() {
  return "pt2web runs torch.export programs: in Python, ep = torch.export.export(model, example_args), "
         "then torch.export.save(ep, 'model.pt2')";
}

}  // namespace pt2web
