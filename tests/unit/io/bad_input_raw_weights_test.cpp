// The PT2-archive layout of torch >= 2.9 with raw weight files (no fixture
// uses it): the mlp fixture rewritten into that layout loads and runs like
// the original, and hostile weight metadata (negative sizes and strides,
// views past the end of their file, missing or mistyped fields) is refused
// as BAD_FILE naming the weight file or config.
#include "runtime/bad_input_util.h"
#include "io/torch_load.h"
#include "test_data_dirs.h"

using namespace pt2web;
using namespace pt2web::bad_input;
using nlohmann::json;
using testing::ZipRecord;

namespace {

constexpr int kSerializedFloat32 = 7;  // ScalarType.FLOAT in torch/_export/serde/schema.py

std::string contiguous_bytes(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::string(static_cast<const char*>(c.raw_data()), c.nbytes());
}

json int_list(const Shape& values) {
  json out = json::array();
  for (int64_t v : values) out.push_back({{"as_int", v}});
  return out;
}

// mlp in the PT2-archive layout; `edit` may change the weights config.
template <typename Edit>
std::vector<uint8_t> mlp_as_pt2_archive(Edit edit) {
  std::vector<ZipRecord> legacy = testing::read_records(fixture_bytes("mlp"));
  const std::string& state_zip = entry(legacy, "serialized_state_dict.pt");
  auto nested = std::make_shared<const std::vector<uint8_t>>(state_zip.begin(), state_zip.end());
  PyValue state = torch_load(ZipArchive::open(nested, "state dict"));
  std::vector<ZipRecord> records{{"archive/archive_format", "pt2"},
                                 {"archive/models/model.json", entry(legacy, "serialized_exported_program.json")}};
  json config = json::object();
  for (size_t k = 0; k < state.keys.size(); ++k) {
    const Tensor& t = state.items[k].tensor;
    std::string file = "weight_" + std::to_string(k);
    records.push_back({"archive/data/weights/" + file, contiguous_bytes(t)});
    config[state.keys[k].s] = {{"path_name", file},
                               {"use_pickle", false},
                               {"tensor_meta",
                                {{"dtype", kSerializedFloat32},
                                 {"sizes", int_list(t.sizes())},
                                 {"strides", int_list(contiguous_strides(t.sizes()))},
                                 {"storage_offset", {{"as_int", 0}}}}}};
  }
  json document = {{"config", config}};
  edit(document["config"]);
  records.push_back({"archive/data/weights/model_weights_config.json", document.dump()});
  records.push_back({"archive/data/constants/model.pt", entry(legacy, "serialized_constants.pt")});
  return testing::write_zip(records).bytes;
}

json& fc1_meta(json& config) { return config["fc1.weight"]["tensor_meta"]; }

}  // namespace

TEST_CASE("mlp with raw weights in the PT2-archive layout runs like the legacy file", "[bad_input]") {
  std::unique_ptr<LoadedProgram> raw = load_bytes(mlp_as_pt2_archive([](json&) {}));
  std::unique_ptr<LoadedProgram> legacy = load_bytes(fixture_bytes("mlp"));
  testing::Case c = testing::read_cases(testing::fixtures_dir() + "/mlp/cases.json").front();
  double max_error = 0;
  CHECK(testing::compare(raw->run(c.args, c.kwargs), legacy->run(c.args, c.kwargs), 0, 0, &max_error).empty());
}

TEST_CASE("hostile raw weight metadata is refused", "[bad_input]") {
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { fc1_meta(c)["sizes"][0]["as_int"] = -32; })),
                ErrorCode::BadFile, "weight file 'archive/data/weights/");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { fc1_meta(c)["strides"][0]["as_int"] = -16; })),
                ErrorCode::BadFile, "has negative entries");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { fc1_meta(c)["sizes"][0]["as_int"] = 33; })),
                ErrorCode::BadFile, "needs 528 elements but the storage has 512");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { fc1_meta(c)["storage_offset"]["as_int"] = 1; })),
                ErrorCode::BadFile, "needs 513 elements");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) {
                  fc1_meta(c)["sizes"] = int_list({int64_t(1) << 40, int64_t(1) << 40});
                })),
                ErrorCode::BadFile, "overflows int64");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { fc1_meta(c).erase("sizes"); })),
                ErrorCode::BadFile, "malformed 'archive/data/weights/model_weights_config.json'");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { fc1_meta(c)["dtype"] = "float"; })),
                ErrorCode::BadFile, "malformed 'archive/data/weights/model_weights_config.json'");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { c["fc1.weight"]["path_name"] = "nowhere"; })),
                ErrorCode::BadFile, "no entry 'archive/data/weights/nowhere'");
  CHECK_REFUSED(load_refusal(mlp_as_pt2_archive([](json& c) { c = json::array({1, 2}); })),
                ErrorCode::BadFile, "has no config object");
}
