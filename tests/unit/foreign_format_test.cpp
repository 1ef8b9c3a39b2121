// Files of other formats handed to load_pt2: real ones from the fixtures
// (an ONNX export, the torch.save checkpoint nested in a legacy .pt2) are
// refused with a BadFile error naming the format and how to export instead.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "io/foreign_format.h"
#include "io/pt2_loader.h"
#include "support/cases.h"
#include "util/error.h"

using namespace pt2web;

namespace {

std::string fixture(const std::string& path) { return std::string(PT2WEB_FIXTURES_DIR) + "/" + path; }

Bytes file_bytes(const std::string& path) {
  return std::make_shared<const std::vector<uint8_t>>(read_file(path));
}

// load_pt2's BadFile message for bytes (empty when it loads).
std::string load_error(const Bytes& bytes, const std::string& label) {
  try {
    load_pt2(bytes, label);
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::BadFile);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("an ONNX export is named as such", "[foreign_format]") {
  Bytes onnx = file_bytes(fixture("mlp/model.onnx"));
  CHECK(foreign_file_kind(onnx->data(), onnx->size()) == "an ONNX model");
  std::string message = load_error(onnx, "mlp.onnx");
  CHECK_THAT(message, Catch::Contains("mlp.onnx is an ONNX model, not a torch.export program"));
  CHECK_THAT(message, Catch::Contains("torch.export.save"));
}

TEST_CASE("a plain torch.save checkpoint is named as such", "[foreign_format]") {
  ZipArchive pt2 = ZipArchive::open(file_bytes(fixture("mlp/model.pt2")), "mlp");
  ByteSpan span = pt2.read("serialized_state_dict.pt");
  auto checkpoint = std::make_shared<const std::vector<uint8_t>>(span.data, span.data + span.size);
  CHECK(foreign_file_kind(checkpoint->data(), checkpoint->size()).empty());
  CHECK_THAT(load_error(checkpoint, "weights.pt"),
             Catch::Contains("weights.pt is a torch.save checkpoint (tensors or objects, no program)"));
}

TEST_CASE("real .pt2 archives and unknown bytes are not taken for another format", "[foreign_format]") {
  Bytes pt2 = file_bytes(fixture("mlp/model.pt2"));
  CHECK(foreign_file_kind(pt2->data(), pt2->size()).empty());
  CHECK(foreign_zip_kind(ZipArchive::open(pt2, "mlp")).empty());
  auto noise = std::make_shared<const std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3, 4, 5});
  CHECK_THAT(load_error(noise, "noise"), Catch::Contains("not a zip archive"));
}
