// The PT2-archive layout torch 2.8+ writes (../shared/docs/PT2-FORMAT.md §4),
// tested on fixtures that torch 2.6 wrote in the legacy layout and
// tests/support/pt2_archive_converter.h rewrote at test time into a temp
// folder: every fixture's cases (tests/fixtures, -export, -decomp, -int8)
// pass from its converted archive (raw weights;
// pickled forms on the programs with every weight kind), the converted bytes
// follow the spec (root folder, records, 64-byte alignment, shared storage
// files), several models load by name, and each byte order either loads or is
// refused with a message naming the file and the order.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cases.h"
#include "fixture_list.h"
#include "fixture_runner.h"
#include "io/torch_load.h"
#include "io/zip_archive.h"
#include "pt2_archive_converter.h"
#include "runtime/loaded_program.h"
#include "util/error.h"
#include "zip_records.h"
#include "test_data_dirs.h"

using namespace pt2web;
using testing::ArchiveModel;
using testing::ArchiveOptions;
using testing::WeightsForm;

namespace {

namespace fs = std::filesystem;

Bytes as_bytes(std::vector<uint8_t> v) { return std::make_shared<const std::vector<uint8_t>>(std::move(v)); }

Bytes fixture_bytes(const std::string& path) { return as_bytes(testing::read_file(path)); }

// A fresh folder under the system's temp folder, removed at scope exit.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    path_ = fs::temp_directory_path() / ("pt2web-archive-" + std::to_string(stamp) + "-" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  // Writes `bytes` to <temp>/<name> and reads the file back.
  Bytes round_trip(const std::string& name, const std::vector<uint8_t>& bytes) const {
    std::string path = (path_ / name).string();
    {
      std::ofstream out(path, std::ios::binary);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    return fixture_bytes(path);
  }

 private:
  fs::path path_;
};

// Converts one fixture program, loads it from a temp file and runs the
// fixture's cases on it with the fixtures' checker.
void check_converted(const std::string& folder, bool core, const ArchiveOptions& options) {
  const std::string model = folder + (core ? "/model.core.pt2" : "/model.pt2");
  const std::string cases = folder + (core ? "/cases.core.json" : "/cases.json");
  TempDir temp;
  Bytes converted = temp.round_trip("model.pt2", testing::convert_to_pt2_archive({{"model", fixture_bytes(model)}}, options));
  LoadedProgram program(converted, model + " (PT2 archive)");
  REQUIRE(program.describe({false})["archive"]["kind"] == "pt2-archive");
  auto results = testing::run_cases(program, cases);
  REQUIRE_FALSE(results.empty());
  for (const auto& c : results) {
    INFO("case " << c.name << ": " << c.code << " " << c.detail);
    CHECK(c.passed);
  }
}

const std::string kShared = testing::export_fixtures_dir() + "/archive_shared_storage";

std::string error_of(const std::function<void()>& f, ErrorCode* code = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "";
}

}  // namespace

// The fixture programs in the legacy layout, each as (folder, core). Found
// once: Catch2 runs a test case's body again for every section, so a scan
// inside it would load every fixture once per section.
const std::vector<std::pair<std::string, bool>>& legacy_fixture_programs() {
  static const std::vector<std::pair<std::string, bool>> programs = [] {
    std::vector<std::pair<std::string, bool>> found;
    for (const std::string& dir : {testing::fixtures_dir(), testing::export_fixtures_dir(),
                                   testing::decomp_fixtures_dir(), testing::int8_fixtures_dir()}) {
      for (const auto& name : testing::fixture_names(dir)) {
        for (bool core : {false, true}) {
          if (!testing::file_exists(dir + "/" + name + (core ? "/cases.core.json" : "/cases.json"))) continue;
          // Programs torch 2.14 wrote are in the PT2-archive layout already
          // (fixture_cases_test runs them as they are).
          const std::string model = dir + "/" + name + (core ? "/model.core.pt2" : "/model.pt2");
          if (inspect_archive(fixture_bytes(model), model, {false})["archive"]["kind"] == "pt2-archive") continue;
          found.emplace_back(dir + "/" + name, core);
        }
      }
    }
    return found;
  }();
  return programs;
}

TEST_CASE("every fixture converted to the PT2-archive layout passes its cases", "[io][pt2-archive][fixtures]") {
  REQUIRE(legacy_fixture_programs().size() > 50);
  for (const auto& [folder, core] : legacy_fixture_programs()) {
    // Named by the fixture folder and its parent: names repeat across folders.
    const std::string parent = folder.substr(0, folder.find_last_of('/'));
    SECTION(folder.substr(parent.find_last_of('/') + 1) + (core ? " core" : " training")) {
      check_converted(folder, core, {});
    }
  }
}

TEST_CASE("pickled weight forms of the PT2 archive pass their cases", "[io][pt2-archive][fixtures]") {
  // Between them: parameters (tied), buffers (views, mutated, persistent or
  // not), tensor constants (views) and batch-norm statistics.
  const std::vector<std::string> folders = {kShared, testing::fixtures_dir() + "/constants",
                                            testing::fixtures_dir() + "/counter_buffer",
                                            testing::fixtures_dir() + "/batchnorm_train"};
  for (const auto& folder : folders) {
    for (WeightsForm form : {WeightsForm::PickledFiles, WeightsForm::PickledDict}) {
      ArchiveOptions options;
      options.weights = form;
      SECTION(folder + (form == WeightsForm::PickledFiles ? " pickled files" : " pickled dict")) {
        check_converted(folder, false, options);
        check_converted(folder, true, options);
      }
    }
  }
}

TEST_CASE("a converted archive's bytes follow the PT2-archive spec", "[io][pt2-archive]") {
  Bytes legacy = fixture_bytes(kShared + "/model.pt2");
  ArchiveOptions options;
  options.root = "shared";
  auto bytes = as_bytes(testing::convert_to_pt2_archive({{"model", legacy}}, options));
  ZipArchive zip = ZipArchive::open(bytes, "converted");

  SECTION("records, root folder and 64-byte alignment with torch's FB padding field") {
    REQUIRE_FALSE(zip.entries().empty());
    CHECK(zip.entries().front().name == "shared/archive_format");
    for (const auto& e : zip.entries()) {
      INFO(e.name);
      CHECK(e.name.rfind("shared/", 0) == 0);
      CHECK(e.method == 0);
      CHECK(e.data_offset % 64 == 0);
    }
    // Local headers in file order: each carries an "FB" extra field.
    const auto& b = *bytes;
    auto le16 = [&](size_t at) { return static_cast<size_t>(b[at] | (b[at + 1] << 8)); };
    size_t at = 0;
    for (const auto& e : zip.entries()) {
      REQUIRE(std::memcmp(&b[at], "PK\3\4", 4) == 0);
      size_t name_length = le16(at + 26), extra_length = le16(at + 28);
      CHECK(std::string(reinterpret_cast<const char*>(&b[at + 30]), name_length) == e.name);
      CHECK(b[at + 30 + name_length] == 'F');
      CHECK(b[at + 31 + name_length] == 'B');
      CHECK(at + 30 + name_length + extra_length == e.data_offset);
      at = e.data_offset + e.size;
    }
    CHECK(zip.read_string("shared/archive_format") == "pt2");
    CHECK(zip.read_string("shared/archive_version") == "0");
    CHECK(zip.read_string("shared/.data/version") == "6\n");
    CHECK(zip.read_string("shared/byteorder") == "little");
    std::string id = zip.read_string("shared/.data/serialization_id");
    CHECK(id.size() == 40);
    CHECK(id.find_first_not_of("0123456789") == std::string::npos);
    ZipArchive original = ZipArchive::open(legacy, "legacy");
    CHECK(zip.read_string("shared/models/model.json") == original.read_string("serialized_exported_program.json"));
    CHECK(zip.read("shared/data/sample_inputs/model.pt").size ==
          original.find("serialized_example_inputs.pt")->size);
  }

  SECTION("views of one storage share one raw file holding the whole storage") {
    auto weights = nlohmann::ordered_json::parse(zip.read_string("shared/data/weights/model_weights_config.json"));
    const auto& w = weights.at("config");
    std::vector<std::string> order;
    for (auto it = w.begin(); it != w.end(); ++it) order.push_back(it.key());
    CHECK(order == std::vector<std::string>{"emb.weight", "out.weight", "table", "table_rows", "table_t"});
    CHECK(w["emb.weight"]["path_name"] == "weight_0");
    CHECK(w["out.weight"]["path_name"] == "weight_0");
    CHECK(w["emb.weight"]["is_param"] == true);
    CHECK(w["emb.weight"]["tensor_meta"]["requires_grad"] == true);
    CHECK(w["table"]["path_name"] == "weight_1");
    CHECK(w["table_rows"]["path_name"] == "weight_1");
    CHECK(w["table_t"]["path_name"] == "weight_1");
    CHECK(w["table"]["is_param"] == false);
    CHECK(w["table"]["use_pickle"] == false);
    CHECK(w["table_rows"]["tensor_meta"]["storage_offset"]["as_int"] == 6);
    CHECK(w["table_t"]["tensor_meta"]["strides"] == nlohmann::ordered_json::parse(R"([{"as_int": 1}, {"as_int": 6}])"));
    CHECK(w["table"]["tensor_meta"]["dtype"] == 7);  // float32 in the export schema
    CHECK(zip.read("shared/data/weights/weight_0").size == 10 * 6 * 4);
    CHECK(zip.read("shared/data/weights/weight_1").size == 4 * 6 * 4);
    CHECK_FALSE(zip.contains("shared/data/weights/weight_2"));

    auto constants = nlohmann::ordered_json::parse(zip.read_string("shared/data/constants/model_constants_config.json"));
    const auto& c = constants.at("config");
    REQUIRE(c.contains("scale"));  // the non-persistent buffer
    CHECK(c["const"]["path_name"] == c["const_tail"]["path_name"]);
    CHECK(c["const_tail"]["tensor_meta"]["storage_offset"]["as_int"] == 6);
    CHECK(c["scale"]["path_name"] != c["const"]["path_name"]);

    // Loaded back: the same values as the legacy file, and views share a storage.
    ArchiveLayout layout;
    ExportedProgram converted = load_pt2(bytes, "converted", &layout);
    ExportedProgram original = load_pt2(legacy, "legacy");
    CHECK(layout.kind == "pt2-archive");
    CHECK(layout.program_entry == "shared/models/model.json");
    CHECK(layout.models == std::vector<std::string>{"model"});
    CHECK(converted.state_dict_order == original.state_dict_order);
    CHECK(converted.constants_order == original.constants_order);
    for (const auto& [name, t] : original.state_dict) {
      INFO(name);
      const Tensor& got = converted.state_dict.at(name);
      CHECK(got.sizes() == t.sizes());
      CHECK(got.strides() == t.strides());
      Tensor a = got.contiguous(), b = t.contiguous();
      CHECK(std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0);
    }
    CHECK(converted.state_dict.at("table").storage() == converted.state_dict.at("table_t").storage());
    CHECK(converted.state_dict.at("emb.weight").storage() == converted.state_dict.at("out.weight").storage());
    REQUIRE(converted.example_inputs.has_value());
  }
}

TEST_CASE("several models in one PT2 archive load by name", "[io][pt2-archive]") {
  const std::string fixtures = testing::fixtures_dir();
  Bytes encoder = fixture_bytes(fixtures + "/mlp/model.pt2");
  Bytes decoder = fixture_bytes(fixtures + "/constants/model.pt2");
  auto bytes = as_bytes(testing::convert_to_pt2_archive({{"encoder", encoder}, {"decoder", decoder}}));
  ZipArchive zip = ZipArchive::open(bytes, "two");

  SECTION("each model has its own program, configs and sample inputs; file numbers run on") {
    for (const char* record : {"model/models/encoder.json", "model/models/decoder.json",
                               "model/data/weights/encoder_weights_config.json",
                               "model/data/weights/decoder_weights_config.json",
                               "model/data/constants/decoder_constants_config.json",
                               "model/data/sample_inputs/encoder.pt", "model/data/sample_inputs/decoder.pt"})
      CHECK(zip.contains(record));
    auto encoder_config = nlohmann::json::parse(zip.read_string("model/data/weights/encoder_weights_config.json"));
    auto decoder_config = nlohmann::json::parse(zip.read_string("model/data/weights/decoder_weights_config.json"));
    size_t encoder_files = encoder_config["config"].size();  // no shared storages in mlp
    std::set<std::string> decoder_files;
    for (const auto& [name, meta] : decoder_config["config"].items()) decoder_files.insert(meta["path_name"]);
    CHECK(decoder_files.count("weight_" + std::to_string(encoder_files)) == 1);
    CHECK(decoder_files.count("weight_0") == 0);
  }

  SECTION("the model option chooses which one runs") {
    LoadedProgram enc(bytes, "two.pt2", "encoder");
    LoadedProgram dec(bytes, "two.pt2", "decoder");
    CHECK(enc.describe({false})["archive"]["models"] == nlohmann::json::parse(R"(["encoder", "decoder"])"));
    for (auto [program, cases] : {std::pair<LoadedProgram*, std::string>{&enc, fixtures + "/mlp/cases.json"},
                                  {&dec, fixtures + "/constants/cases.json"}}) {
      for (const auto& c : testing::run_cases(*program, cases)) {
        INFO(cases << " case " << c.name << ": " << c.detail);
        CHECK(c.passed);
      }
    }
  }

  SECTION("without a model named 'model' the choice is required, and unknown names are refused") {
    ErrorCode code{};
    std::string message = error_of([&] { LoadedProgram p(bytes, "two.pt2"); }, &code);
    CHECK(code == ErrorCode::BadInput);
    CHECK_THAT(message, Catch::Contains("two.pt2 holds several models ('encoder', 'decoder')"));
    CHECK_THAT(message, Catch::Contains("model option"));
    message = error_of([&] { LoadedProgram p(bytes, "two.pt2", "model"); }, &code);
    CHECK(code == ErrorCode::BadInput);
    CHECK_THAT(message, Catch::Contains("two.pt2 has no model 'model'; its models are 'encoder', 'decoder'"));
  }

  SECTION("a model named 'model' is the default, as torch.export.save names it") {
    auto with_default = as_bytes(testing::convert_to_pt2_archive({{"other", encoder}, {"model", decoder}}));
    LoadedProgram p(with_default, "default.pt2");
    CHECK(p.describe({false})["archive"]["program_entry"] == "model/models/model.json");
  }

  SECTION("an archive of one model loads it whatever its name") {
    auto single = as_bytes(testing::convert_to_pt2_archive({{"encoder", encoder}}));
    LoadedProgram p(single, "single.pt2");
    CHECK(p.describe({false})["archive"]["program_entry"] == "model/models/encoder.json");
  }

  SECTION("a legacy archive holds one program, 'model'") {
    LoadedProgram p(encoder, "mlp.pt2", "model");
    ErrorCode code{};
    std::string message = error_of([&] { LoadedProgram q(encoder, "mlp.pt2", "encoder"); }, &code);
    CHECK(code == ErrorCode::BadInput);
    CHECK_THAT(message, Catch::Contains("mlp.pt2 has no model 'encoder'"));
    CHECK_THAT(message, Catch::Contains("legacy"));
  }
}

TEST_CASE("big-endian archives: pickled weights are byte-swapped, raw ones refused", "[io][pt2-archive][endian]") {
  const std::string mlp = testing::fixtures_dir() + "/mlp";

  SECTION("a PT2 archive with raw weights in big-endian order is refused naming the file and the order") {
    ArchiveOptions options;
    options.big_endian = true;
    auto bytes = as_bytes(testing::convert_to_pt2_archive({{"model", fixture_bytes(mlp + "/model.pt2")}}, options));
    ErrorCode code{};
    std::string message = error_of([&] { LoadedProgram p(bytes, "big.pt2"); }, &code);
    CHECK(code == ErrorCode::Unsupported);
    CHECK_THAT(message, Catch::Contains("big.pt2: raw weight file 'model/data/weights/weight_0'"));
    CHECK_THAT(message, Catch::Contains("'big' byte order (model/byteorder)"));
    CHECK_THAT(message, Catch::Contains("little-endian"));
  }

  SECTION("a legacy archive whose state dict was saved big-endian loads and passes its cases") {
    // mlp's weights are all float32: swapping every 4 bytes of each storage
    // record gives what torch.save writes on a big-endian machine.
    Bytes legacy = fixture_bytes(mlp + "/model.pt2");
    for (const auto& [name, t] : load_pt2(legacy, "mlp").state_dict) REQUIRE(t.dtype() == DType::Float32);
    std::vector<testing::ZipRecord> outer = testing::read_records(*legacy);
    for (auto& record : outer) {
      if (record.name != "serialized_state_dict.pt") continue;
      std::vector<uint8_t> inner_bytes(record.data.begin(), record.data.end());
      std::vector<testing::ZipRecord> inner = testing::read_records(inner_bytes);
      for (auto& r : inner) {
        if (r.name.find("/data/") != std::string::npos) {
          for (size_t at = 0; at + 4 <= r.data.size(); at += 4) {
            std::swap(r.data[at], r.data[at + 3]);
            std::swap(r.data[at + 1], r.data[at + 2]);
          }
        } else if (r.name.size() >= 9 && r.name.compare(r.name.size() - 9, 9, "byteorder") == 0) {
          r.data = "big";
        }
      }
      auto written = testing::write_zip(inner).bytes;
      record.data.assign(written.begin(), written.end());
    }
    Bytes big = as_bytes(testing::write_zip(outer).bytes);
    ExportedProgram swapped = load_pt2(big, "big-mlp");
    ExportedProgram original = load_pt2(legacy, "mlp");
    for (const auto& [name, t] : original.state_dict) {
      Tensor a = swapped.state_dict.at(name).contiguous(), b = t.contiguous();
      CHECK(std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0);
    }
    LoadedProgram program(big, "big-mlp");
    for (const auto& c : testing::run_cases(program, mlp + "/cases.json")) {
      INFO("case " << c.name << ": " << c.detail);
      CHECK(c.passed);
    }
  }
}

TEST_CASE("PT2-archive versions other than 0 are refused naming the record", "[io][pt2-archive]") {
  auto bytes = testing::convert_to_pt2_archive({{"model", fixture_bytes(kShared + "/model.pt2")}});
  std::vector<testing::ZipRecord> records = testing::read_records(bytes);
  for (auto& r : records)
    if (r.name == "model/archive_version") r.data = "1";
  Bytes changed = as_bytes(testing::write_zip(records).bytes);
  ErrorCode code{};
  std::string message = error_of([&] { LoadedProgram p(changed, "v1.pt2"); }, &code);
  CHECK(code == ErrorCode::Unsupported);
  CHECK_THAT(message, Catch::Contains("v1.pt2: PT2 archive version '1' (model/archive_version) is not supported"));
}

TEST_CASE("example inputs that pickle a user dataclass leave the program loadable", "[io][pytree]") {
  const std::string dir = testing::export_fixtures_dir() + "/pytree_dataclass";
  for (const char* file : {"/model.pt2", "/model.core.pt2"}) {
    ExportedProgram ep = load_pt2(fixture_bytes(dir + file), "pytree_dataclass");
    CHECK_FALSE(ep.example_inputs.has_value());
    CHECK_THAT(ep.example_inputs_unavailable, Catch::Contains("pickle global '__main__.Pair' is not allowed"));
    // Converted to the PT2-archive layout the sample inputs are the same pickle.
    ExportedProgram converted = load_pt2(
        as_bytes(testing::convert_to_pt2_archive({{"model", fixture_bytes(dir + file)}})), "pytree_dataclass");
    CHECK_FALSE(converted.example_inputs.has_value());
    CHECK_THAT(converted.example_inputs_unavailable,
               Catch::Contains("model/data/sample_inputs/model.pt") && Catch::Contains("'__main__.Pair'"));
  }
}
