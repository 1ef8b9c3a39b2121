#include "io/pt2_loader.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <nlohmann/json.hpp>

#include "io/foreign_format.h"
#include "io/program_json.h"
#include "io/torch_load.h"
#include "tensor/alignment.h"
#include "tensor/view_bounds.h"
#include "util/error.h"
#include "util/stage_times.h"

namespace pt2web {

namespace {

using json = nlohmann::json;

// A state-dict load whose records stay in the source until settle_state()
// says which the program reads. Null when everything is read at load.
struct Deferral {
  std::vector<UnreadStorage> storages;
  UnreadState* out = nullptr;
  const WeightProgress* progress = nullptr;  // told as read weights are copied (may be null)
};

// Reports copies to a WeightProgress in steps of at least 1% of the total
// (a program of ten thousand small weights does not make ten thousand calls).
class ProgressSteps {
 public:
  ProgressSteps(const WeightProgress* progress, uint64_t total) : progress_(progress), total_(total) {
    if (active()) (*progress_)(0, total_);
  }
  void add(uint64_t bytes) {
    done_ += bytes;
    if (active() && (done_ == total_ || done_ - told_ >= total_ / 100)) {
      told_ = done_;
      (*progress_)(done_, total_);
    }
  }

 private:
  bool active() const { return progress_ != nullptr && *progress_ && total_ > 0; }
  const WeightProgress* progress_;
  uint64_t total_, done_ = 0, told_ = 0;
};

// Copies a dict PyValue of tensors into name -> Tensor maps, keeping order.
void take_tensors(const PyValue& dict, const std::string& what, std::map<std::string, Tensor>* out,
                  std::vector<std::string>* order) {
  if (dict.kind != PyValue::Kind::Dict) fail(ErrorCode::BadFile, what, " is not a dict");
  for (size_t k = 0; k < dict.keys.size(); ++k) {
    if (dict.keys[k].kind != PyValue::Kind::Str)
      fail(ErrorCode::BadFile, what, " has a non-string key");
    if (dict.items[k].kind != PyValue::Kind::Tensor)
      fail(ErrorCode::Unsupported, what, " entry '", dict.keys[k].s, "' is a ",
           py_kind_name(dict.items[k].kind), ", not a tensor");
    (*out)[dict.keys[k].s] = dict.items[k].tensor;
    order->push_back(dict.keys[k].s);
  }
}

void take_constants(const PyValue& dict, ExportedProgram& ep) {
  if (dict.kind != PyValue::Kind::Dict) fail(ErrorCode::BadFile, "constants are not a dict");
  for (size_t k = 0; k < dict.keys.size(); ++k) {
    ep.constants[dict.keys[k].s] = dict.items[k];
    ep.constants_order.push_back(dict.keys[k].s);
  }
}

PyValue load_nested(const ZipArchive& archive, const std::string& entry,
                    StorageAlignment alignment = StorageAlignment::CopyMisaligned, Deferral* deferral = nullptr) {
  ZipArchive nested = archive.open_nested(entry);
  return torch_load(nested, alignment, deferral ? &deferral->storages : nullptr);
}

// The state dict is loaded without aligning misaligned storages (the legacy
// zip's nested archives start at any offset); only the entries the program
// reads (its parameters and persistent buffers) get an aligned copy, so
// entries no node reads, such as the float originals PT2E keeps next to its
// int8 weights, are never copied. Entries sharing a storage keep sharing it.
void align_read_state(ExportedProgram& ep) {
  std::map<const Storage*, std::shared_ptr<Storage>> copies;
  for (const auto& spec : ep.signature.input_specs) {
    if (spec.kind != InputKind::Parameter && spec.kind != InputKind::Buffer) continue;
    auto it = ep.state_dict.find(spec.target);
    if (it == ep.state_dict.end() || is_aligned(it->second)) continue;
    Tensor& t = it->second;
    std::shared_ptr<Storage>& copy = copies[t.storage().get()];
    if (!copy) copy = aligned(t).storage();
    t = Tensor(copy, t.dtype(), t.sizes(), t.strides(), t.storage_offset());
  }
}

// Replaces the placeholders torch_load left for `deferral`: the storages of
// the entries the program reads (its signature's parameters and buffers),
// and of any entry sharing one with them, are copied out of the source now,
// on the loading thread; the other entries (the float originals PT2E keeps
// next to its int8 weights) leave the state dict for deferral->out.
void settle_state(ExportedProgram& ep, Deferral* deferral) {
  if (deferral == nullptr || deferral->storages.empty()) return;
  std::map<const Storage*, const UnreadStorage*> unread;
  for (const UnreadStorage& u : deferral->storages) unread[u.placeholder.get()] = &u;
  // The tensors the signature's parameters and buffers read, and the
  // storages behind them: counted first (for progress), then copied.
  std::vector<std::pair<Tensor*, const UnreadStorage*>> reads;
  std::set<const UnreadStorage*> read_storages;
  for (const auto& spec : ep.signature.input_specs) {
    if (spec.kind != InputKind::Parameter && spec.kind != InputKind::Buffer) continue;
    auto it = ep.state_dict.find(spec.target);
    if (it == ep.state_dict.end()) continue;
    auto u = unread.find(it->second.storage().get());
    if (u == unread.end()) continue;
    reads.emplace_back(&it->second, u->second);
    read_storages.insert(u->second);
  }
  uint64_t total = 0;
  for (const UnreadStorage* u : read_storages) total += u->nbytes;
  ProgressSteps steps(deferral->progress, total);
  std::map<const Storage*, std::shared_ptr<Storage>> fetched;
  auto rebuild = [&](Tensor& t, const UnreadStorage& u) {
    std::shared_ptr<Storage>& storage = fetched[u.placeholder.get()];
    if (!storage) {
      storage = copy_record(*u.source, u.offset, u.nbytes);
      steps.add(u.nbytes);
    }
    t = Tensor(storage, t.dtype(), t.sizes(), t.strides(), t.storage_offset());
  };
  for (const auto& [tensor, u] : reads) rebuild(*tensor, *u);
  UnreadState& out = *deferral->out;
  out.order = ep.state_dict_order;
  for (auto it = ep.state_dict.begin(); it != ep.state_dict.end();) {
    auto u = unread.find(it->second.storage().get());
    if (u == unread.end()) {
      ++it;
    } else if (fetched.count(u->first) != 0) {
      rebuild(it->second, *u->second);
      ++it;
    } else {
      const Tensor& t = it->second;
      out.tensors[it->first] = {t.dtype(), t.sizes(), t.strides(), t.storage_offset(), *u->second};
      it = ep.state_dict.erase(it);
    }
  }
  auto& order = ep.state_dict_order;
  order.erase(std::remove_if(order.begin(), order.end(), [&](const std::string& name) { return out.tensors.count(name) != 0; }),
              order.end());
}

// Example inputs are a convenience the program does not need: when they
// cannot be read (a pickled user class such as a namedtuple or dataclass
// defined in the exporting script, a corrupt entry) the program loads without
// them and records why.
void load_example_inputs(const ZipArchive& archive, const std::string& entry, ExportedProgram& ep) {
  try {
    ep.example_inputs = load_nested(archive, entry);
  } catch (const Error& e) {
    ep.example_inputs.reset();
    ep.example_inputs_unavailable = e.what();
  }
}

void check_schema_version(const ExportedProgram& ep, const std::string& label) {
  int64_t major = ep.schema_version.major;
  if (major != 0 && major != 5 && major != 7 && major != 8)
    fail(ErrorCode::Unsupported, label, ": export schema version ", major, ".",
         ep.schema_version.minor, " is not supported (pt2web reads 5.x to 8.x)");
}

ExportedProgram load_legacy(const ZipArchive& archive, const std::string& label, Deferral* deferral) {
  ExportedProgram ep = parse_program_json(archive.read_string("serialized_exported_program.json"));
  check_schema_version(ep, label);
  for (const char* name : {"serialized_state_dict.pt", "serialized_state_dict.json"})
    if (archive.contains(name) && archive.find(name)->size > 0) {
      StageTimer state_timer("read weights");
      take_tensors(load_nested(archive, name, StorageAlignment::KeepMisaligned, deferral),
                   std::string(label) + " state dict", &ep.state_dict, &ep.state_dict_order);
      settle_state(ep, deferral);
      align_read_state(ep);
      break;
    }
  for (const char* name : {"serialized_constants.pt", "serialized_constants.json"})
    if (archive.contains(name) && archive.find(name)->size > 0) {
      take_constants(load_nested(archive, name), ep);
      break;
    }
  if (archive.contains("serialized_example_inputs.pt") &&
      archive.find("serialized_example_inputs.pt")->size > 0)
    load_example_inputs(archive, "serialized_example_inputs.pt", ep);
  return ep;
}

// One raw weight file (torch >= 2.9) as a tensor: its tensor_meta gives
// dtype, sizes, strides and offset, checked against the file's size. Tensors
// naming the same file are views of one storage (`files` keeps it).
Tensor load_raw_payload(const ZipArchive& archive, const std::string& file, const json& meta,
                        std::map<std::string, std::shared_ptr<Storage>>& files) {
  const json& tm = meta.at("tensor_meta");
  DType dtype = dtype_from_serialized(tm.at("dtype").get<int64_t>());
  Shape sizes, strides;
  for (const auto& s : tm.at("sizes")) sizes.push_back(s.at("as_int").get<int64_t>());
  for (const auto& s : tm.at("strides")) strides.push_back(s.at("as_int").get<int64_t>());
  int64_t offset = tm.at("storage_offset").at("as_int").get<int64_t>();
  std::shared_ptr<Storage>& storage = files[file];
  if (!storage) {
    const ZipArchive::Entry& entry = archive.stored_entry(file);
    storage = copy_record(*archive.source(), entry.data_offset, entry.size);
  }
  std::string problem = view_bounds_problem(sizes, strides, offset, storage->nbytes() / element_size(dtype));
  if (!problem.empty()) fail(ErrorCode::BadFile, archive.label(), ": weight file '", file, "': ", problem);
  return Tensor(storage, dtype, sizes, strides, offset);
}

// The byte order a PT2 archive's root "byteorder" record names ("little"
// when there is none). Raw payloads are element bytes in that order.
std::string archive_byte_order(const ZipArchive& archive, const std::string& root) {
  const std::string record = root + "byteorder";
  return archive.contains(record) ? archive.read_string(record) : std::string("little");
}

// Raw weights (torch >= 2.9): a PayloadConfig JSON maps names to files, in
// the order torch wrote them (the state dict's order).
void load_payloads(const ZipArchive& archive, const std::string& root, const std::string& dir,
                   const std::string& config_entry, bool constants, ExportedProgram& ep) {
  std::map<std::string, std::shared_ptr<Storage>> files;
  const std::string byte_order = archive_byte_order(archive, root);
  try {
    auto config = nlohmann::ordered_json::parse(archive.read_string(config_entry));
    const auto& entries = config.at("config");
    if (!entries.is_object()) fail(ErrorCode::BadFile, archive.label(), ": '", config_entry, "' has no config object");
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      json meta = it.value();
      std::string file = root + dir + meta.at("path_name").get<std::string>();
      if (meta.value("use_pickle", false)) {
        PyValue v = load_nested(archive, file);
        if (constants) ep.constants[it.key()] = v;
        else if (v.kind == PyValue::Kind::Tensor) ep.state_dict[it.key()] = v.tensor;
        else fail(ErrorCode::BadFile, archive.label(), ": weight '", it.key(), "' is not a tensor");
      } else {
        // Pickled weights carry their own byteorder record (io/torch_load
        // swaps big-endian ones); raw ones are read little-endian only.
        if (byte_order != "little")
          fail(ErrorCode::Unsupported, archive.label(), ": raw weight file '", file, "' is in '", byte_order,
               "' byte order (", root, "byteorder); pt2web reads raw weights in little-endian order only "
               "(re-save the program on a little-endian machine)");
        Tensor t = load_raw_payload(archive, file, meta, files);
        if (constants) ep.constants[it.key()] = PyValue::from_tensor(t);
        else ep.state_dict[it.key()] = t;
      }
      (constants ? ep.constants_order : ep.state_dict_order).push_back(it.key());
    }
  } catch (const json::exception& e) {
    fail(ErrorCode::BadFile, archive.label(), ": malformed '", config_entry, "': ", e.what());
  }
}

// The models of a PT2 archive: the stems of "<root>models/*.json", in archive order.
std::vector<std::string> archive_models(const ZipArchive& archive, const std::string& root) {
  std::vector<std::string> names;
  const std::string dir = root + "models/";
  for (const auto& e : archive.entries())
    if (e.name.size() > dir.size() + 5 && e.name.compare(0, dir.size(), dir) == 0 &&
        e.name.compare(e.name.size() - 5, 5, ".json") == 0 && e.name.find('/', dir.size()) == std::string::npos)
      names.push_back(e.name.substr(dir.size(), e.name.size() - dir.size() - 5));
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out.empty() ? "none" : out;
}

// Which model to load: the one asked for, else "model" (what
// torch.export.save writes), else the only one.
std::string choose_model(const std::vector<std::string>& models, const std::string& wanted, const std::string& label) {
  auto has = [&](const std::string& n) { return std::find(models.begin(), models.end(), n) != models.end(); };
  if (!wanted.empty()) {
    if (has(wanted)) return wanted;
    fail(ErrorCode::BadInput, label, " has no model '", wanted, "'; its models are ", joined(models));
  }
  if (has("model")) return "model";
  if (models.size() == 1) return models[0];
  if (models.empty()) fail(ErrorCode::BadFile, label, " is a PT2 archive without models/*.json");
  fail(ErrorCode::BadInput, label, " holds several models (", joined(models),
       "): choose one with the model option");
}

ExportedProgram load_pt2_archive(const ZipArchive& archive, const std::string& root, const std::string& label,
                                 const std::string& wanted, ArchiveLayout* layout, Deferral* deferral) {
  std::string version = root + "archive_version";
  if (archive.contains(version) && archive.read_string(version) != "0")
    fail(ErrorCode::Unsupported, label, ": PT2 archive version '", archive.read_string(version),
         "' (", version, ") is not supported (pt2web reads version 0)");
  std::vector<std::string> models = archive_models(archive, root);
  std::string name = choose_model(models, wanted, label);
  std::string program_entry = root + "models/" + name + ".json";
  if (layout) {
    layout->program_entry = program_entry;
    layout->models = models;
  }
  ExportedProgram ep = parse_program_json(archive.read_string(program_entry));
  check_schema_version(ep, label);
  std::string weights_pt = root + "data/weights/" + name + ".pt";
  std::string weights_cfg = root + "data/weights/" + name + "_weights_config.json";
  if (archive.contains(weights_pt) && archive.find(weights_pt)->size > 0) {
    take_tensors(load_nested(archive, weights_pt, StorageAlignment::CopyMisaligned, deferral), label + " weights",
                 &ep.state_dict, &ep.state_dict_order);
    settle_state(ep, deferral);
  } else if (archive.contains(weights_cfg)) {
    load_payloads(archive, root, "data/weights/", weights_cfg, false, ep);
  }
  std::string constants_pt = root + "data/constants/" + name + ".pt";
  std::string constants_cfg = root + "data/constants/" + name + "_constants_config.json";
  if (archive.contains(constants_pt) && archive.find(constants_pt)->size > 0) {
    take_constants(load_nested(archive, constants_pt), ep);
  } else if (archive.contains(constants_cfg)) {
    load_payloads(archive, root, "data/constants/", constants_cfg, true, ep);
  }
  std::string inputs = root + "data/sample_inputs/" + name + ".pt";
  if (archive.contains(inputs) && archive.find(inputs)->size > 0) load_example_inputs(archive, inputs, ep);
  return ep;
}

ExportedProgram load_archive(std::shared_ptr<const ByteSource> source, const std::string& label,
                             ArchiveLayout* layout, const std::string& model, Deferral* deferral) {
  if (source) {
    // Other formats show in their first bytes.
    constexpr uint64_t kSniffBytes = 4096;
    uint64_t size = source->size();
    SharedBytes head = source->read(0, std::min(size, kSniffBytes));
    std::string kind = foreign_file_kind(head.data, head.size, size);
    if (!kind.empty()) fail(ErrorCode::BadFile, label, " is ", kind, ", not a torch.export program; ", foreign_format_advice());
  }
  StageTimer timer("load_pt2 (all of read)");
  ZipArchive archive = ZipArchive::open(std::move(source), label);
  if (layout) {
    layout->entries.clear();
    for (const auto& e : archive.entries()) layout->entries.emplace_back(e.name, e.size);
  }
  if (archive.contains("serialized_exported_program.json")) {
    if (!model.empty() && model != "model")
      fail(ErrorCode::BadInput, label, " has no model '", model,
           "': it is a legacy torch.export archive, which holds one program ('model')");
    if (layout) {
      layout->kind = "legacy";
      layout->program_entry = "serialized_exported_program.json";
      layout->models = {"model"};
    }
    return load_legacy(archive, label, deferral);
  }
  // PT2 archive: "<root>/archive_format" == "pt2" (or at the zip root).
  std::string root;
  if (!archive.entries().empty()) {
    const std::string& first = archive.entries().front().name;
    size_t slash = first.find('/');
    if (slash != std::string::npos) root = first.substr(0, slash + 1);
  }
  for (const std::string& candidate : {root, std::string()}) {
    std::string format = candidate + "archive_format";
    if (archive.contains(format) && archive.read_string(format).rfind("pt2", 0) == 0) {
      if (layout) layout->kind = "pt2-archive";
      return load_pt2_archive(archive, candidate, label, model, layout, deferral);
    }
  }
  std::string kind = foreign_zip_kind(archive);
  if (!kind.empty()) fail(ErrorCode::BadFile, label, " is ", kind, ", not a torch.export program; ", foreign_format_advice());
  fail(ErrorCode::BadFile, label,
       " is a zip but not a torch.export archive (no serialized_exported_program.json or archive_format)");
}

}  // namespace

ExportedProgram load_pt2(Bytes bytes, const std::string& label, ArchiveLayout* layout, const std::string& model) {
  return load_pt2(bytes ? memory_source(std::move(bytes)) : nullptr, label, layout, nullptr, model);
}

ExportedProgram load_pt2(std::shared_ptr<const ByteSource> source, const std::string& label,
                         ArchiveLayout* layout, UnreadState* unread, const std::string& model,
                         const WeightProgress& progress) {
  if (unread) *unread = UnreadState();
  Deferral deferral;
  deferral.out = unread;
  deferral.progress = &progress;
  bool defer = unread != nullptr && source && !source->borrows();
  return load_archive(std::move(source), label, layout, model, defer ? &deferral : nullptr);
}

Tensor UnreadTensor::fetch() const {
  return Tensor(copy_record(*storage.source, storage.offset, storage.nbytes), dtype, sizes, strides, storage_offset);
}

void UnreadState::restore(ExportedProgram& ep) const {
  if (tensors.empty()) return;
  for (const auto& [name, tensor] : tensors) ep.state_dict[name] = tensor.fetch();
  // The archive's order, then any names a pass added since.
  std::vector<std::string> merged;
  std::set<std::string> seen;
  for (const auto& names : {order, ep.state_dict_order})
    for (const std::string& name : names)
      if (ep.state_dict.count(name) != 0 && seen.insert(name).second) merged.push_back(name);
  ep.state_dict_order = std::move(merged);
}

}  // namespace pt2web
