#include "pt2_archive_converter.h"

#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "io/program_json.h"
#include "io/program_json_writer.h"
#include "io/torch_load.h"
#include "io/torch_save.h"
#include "io/zip_archive.h"
#include "io/zip_writer.h"
#include "util/error.h"

namespace pt2web::testing {

namespace {

using ordered_json = nlohmann::ordered_json;

constexpr const char* kLegacyProgram = "serialized_exported_program.json";

// A legacy record's bytes ("" when absent).
std::string record_or_empty(const ZipArchive& legacy, const std::string& name) {
  return legacy.contains(name) ? legacy.read_string(name) : std::string();
}

// The names and tensors of a legacy torch.save dict record, in saved order
// (views of one storage keep sharing their Storage).
std::vector<std::pair<std::string, Tensor>> saved_tensors(const ZipArchive& legacy, const std::string& record) {
  std::vector<std::pair<std::string, Tensor>> out;
  if (!legacy.contains(record) || legacy.find(record)->size == 0) return out;
  PyValue dict = torch_load(legacy.open_nested(record), StorageAlignment::KeepMisaligned);
  for (size_t k = 0; k < dict.keys.size(); ++k) {
    if (dict.items[k].kind != PyValue::Kind::Tensor)
      fail(ErrorCode::BadInput, legacy.label(), ": '", dict.keys[k].s, "' in ", record,
           " is not a tensor; the converter writes tensors only");
    out.emplace_back(dict.keys[k].s, dict.items[k].tensor);
  }
  return out;
}

ordered_json tensor_meta_json(const Tensor& t, bool requires_grad) {
  ordered_json sizes = ordered_json::array(), strides = ordered_json::array();
  for (int64_t s : t.sizes()) sizes.push_back({{"as_int", s}});
  for (int64_t s : t.strides()) strides.push_back({{"as_int", s}});
  return {{"dtype", dtype_to_serialized(t.dtype())}, {"sizes", sizes}, {"requires_grad", requires_grad},
          {"device", {{"type", "cpu"}, {"index", nullptr}}}, {"strides", strides},
          {"storage_offset", {{"as_int", t.storage_offset()}}}, {"layout", 7}};
}

// The whole storage's bytes, elements byte-swapped for a big-endian archive
// (complex numbers swap each half).
std::vector<uint8_t> storage_bytes(const Tensor& t, bool big_endian) {
  const Storage& s = *t.storage();
  std::vector<uint8_t> bytes(s.data(), s.data() + s.nbytes());
  size_t unit = is_complex(t.dtype()) ? element_size(t.dtype()) / 2 : element_size(t.dtype());
  if (big_endian && unit > 1)
    for (size_t at = 0; at + unit <= bytes.size(); at += unit)
      for (size_t lo = at, hi = at + unit - 1; lo < hi; ++lo, --hi) std::swap(bytes[lo], bytes[hi]);
  return bytes;
}

class ArchiveBuilder {
 public:
  explicit ArchiveBuilder(const ArchiveOptions& options) : options_(options), zip_(64) {
    root_ = options.root.empty() ? std::string() : options.root + "/";
    add("archive_format", "pt2");
    add("archive_version", "0");
  }

  void add_model(const ArchiveModel& model) {
    if (!models_.insert(model.name).second) fail(ErrorCode::BadInput, "model '", model.name, "' given twice");
    ZipArchive legacy = ZipArchive::open(model.legacy, model.name);
    if (!legacy.contains(kLegacyProgram))
      fail(ErrorCode::BadInput, model.name, ": not a legacy torch.export .pt2 (no ", kLegacyProgram, ")");
    std::string program_json = legacy.read_string(kLegacyProgram);
    // ep.state_dict holds the parameters and the persistent buffers; the
    // signature names the buffers (a tied parameter may be listed under the
    // other name only, as torch 2.6 does).
    std::set<std::string> buffers;
    for (const auto& spec : parse_program_json(program_json).signature.input_specs)
      if (spec.kind == InputKind::Buffer) buffers.insert(spec.target);

    const std::string weights = "serialized_state_dict.pt", constants = "serialized_constants.pt";
    if (options_.weights == WeightsForm::PickledDict) {
      add("data/weights/" + model.name + ".pt", record_or_empty(legacy, weights));
      add("data/constants/" + model.name + ".pt", record_or_empty(legacy, constants));
    } else {
      add_payloads(saved_tensors(legacy, weights), &buffers, "data/weights/", "weight_", weight_files_,
                   model.name + "_weights_config.json");
      add_payloads(saved_tensors(legacy, constants), nullptr, "data/constants/", "tensor_", tensor_files_,
                   model.name + "_constants_config.json");
    }
    add("models/" + model.name + ".json", program_json);
    add("data/sample_inputs/" + model.name + ".pt", record_or_empty(legacy, "serialized_example_inputs.pt"));
    for (const auto& e : legacy.entries())
      if (e.name.rfind("extra_files/", 0) == 0) add("extra/" + e.name.substr(12), legacy.read_string(e.name));
  }

  std::vector<uint8_t> finish() {
    add(".data/version", "6\n");
    add("byteorder", options_.big_endian ? "big" : "little");
    // Two 20-digit numbers, as torch's writer: a hash of the record names and
    // a combination of their CRCs (readers ignore both).
    uint64_t names_hash = 1469598103934665603ull, crc_mix = 0;
    for (const auto& [name, crc] : written_) {
      for (char c : name) names_hash = (names_hash ^ static_cast<uint8_t>(c)) * 1099511628211ull;
      crc_mix = crc_mix * 31 + crc;
    }
    char id[41];
    std::snprintf(id, sizeof id, "%020llu%020llu", static_cast<unsigned long long>(names_hash),
                  static_cast<unsigned long long>(crc_mix));
    add(".data/serialization_id", std::string(id, 40));
    return zip_.finish();
  }

 private:
  void add(const std::string& record, const std::string& data) { add(record, reinterpret_cast<const uint8_t*>(data.data()), data.size()); }
  void add(const std::string& record, const uint8_t* data, size_t size) {
    zip_.add(root_ + record, data, size);
    written_.emplace_back(record, crc32_of(data, size));
  }

  // One PayloadConfig and its files. Raw: one file per (storage, dtype) with
  // the whole storage; pickled: one torch.save of each tensor. `buffers`:
  // for the weights, the state-dict names that are buffers (the rest are
  // parameters); nullptr for constants.
  void add_payloads(const std::vector<std::pair<std::string, Tensor>>& tensors,
                    const std::set<std::string>* buffers, const std::string& dir, const std::string& prefix,
                    int& counter, const std::string& config_name) {
    bool pickled = options_.weights == WeightsForm::PickledFiles;
    std::map<std::pair<const Storage*, DType>, std::string> files;
    ordered_json config = ordered_json::object();
    for (const auto& [name, tensor] : tensors) {
      bool is_param = buffers && buffers->count(name) == 0;
      std::string file;
      if (pickled) {
        file = prefix + std::to_string(counter++);
        std::vector<uint8_t> blob = torch_save(PyValue::from_tensor(tensor));
        add(dir + file, blob.data(), blob.size());
      } else {
        auto key = std::make_pair(tensor.storage().get(), tensor.dtype());
        auto found = files.find(key);
        if (found != files.end()) {
          file = found->second;
        } else {
          file = files[key] = prefix + std::to_string(counter++);
          std::vector<uint8_t> bytes = storage_bytes(tensor, options_.big_endian);
          add(dir + file, bytes.data(), bytes.size());
        }
      }
      config[name] = {{"path_name", file}, {"is_param", is_param}, {"use_pickle", pickled},
                      {"tensor_meta", tensor_meta_json(tensor, is_param)}};
    }
    add(dir + config_name, ordered_json{{"config", config}}.dump());
  }

  ArchiveOptions options_;
  ZipWriter zip_;
  std::string root_;
  std::set<std::string> models_;
  std::vector<std::pair<std::string, uint32_t>> written_;  // record (without root), crc
  int weight_files_ = 0, tensor_files_ = 0;
};

}  // namespace

std::vector<uint8_t> convert_to_pt2_archive(const std::vector<ArchiveModel>& models, const ArchiveOptions& options) {
  if (models.empty()) fail(ErrorCode::BadInput, "no model to write");
  ArchiveBuilder builder(options);
  for (const auto& model : models) builder.add_model(model);
  return builder.finish();
}

}  // namespace pt2web::testing
