// Files of other formats handed to load_pt2: real ones from the fixtures
// (an ONNX export, the torch.save checkpoint nested in a legacy .pt2) are
// refused with a BadFile error naming the format and how to export instead.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "io/foreign_format.h"
#include "io/pt2_loader.h"
#include "cases.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

std::string fixture(const std::string& path) { return testing::fixtures_dir() + "/" + path; }

Bytes file_bytes(const std::string& path) {
  return std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
}

// load_pt2 refuses bytes with a BadFile error whose message contains text.
void check_refused(const Bytes& bytes, const std::string& label, const std::string& text) {
  auto matches = [&](const Error& e) {
    return e.code() == ErrorCode::BadFile && std::string(e.what()).find(text) != std::string::npos;
  };
  CHECK_THROWS_MATCHES(load_pt2(bytes, label), Error,
                       Catch::Predicate<Error>(matches, "a BadFile error containing \"" + text + "\""));
}

}  // namespace

TEST_CASE("an ONNX export is named as such", "[foreign_format]") {
  Bytes onnx = file_bytes(fixture("mlp/model.onnx"));
  CHECK(foreign_file_kind(onnx->data(), onnx->size()) == "an ONNX model");
  check_refused(onnx, "mlp.onnx", "mlp.onnx is an ONNX model, not a torch.export program; ");
  check_refused(onnx, "mlp.onnx", "torch.export.save(ep, 'model.pt2')");
}

TEST_CASE("a plain torch.save checkpoint is named as such", "[foreign_format]") {
  ZipArchive pt2 = ZipArchive::open(file_bytes(fixture("mlp/model.pt2")), "mlp");
  SharedBytes span = pt2.read("serialized_state_dict.pt");
  auto checkpoint = std::make_shared<const std::vector<uint8_t>>(span.data, span.data + span.size);
  CHECK(foreign_file_kind(checkpoint->data(), checkpoint->size()).empty());
  check_refused(checkpoint, "weights.pt", "weights.pt is a torch.save checkpoint (tensors or objects, no program)");
}

TEST_CASE("real .pt2 archives and unknown bytes are not taken for another format", "[foreign_format]") {
  Bytes pt2 = file_bytes(fixture("mlp/model.pt2"));
  CHECK(foreign_file_kind(pt2->data(), pt2->size()).empty());
  CHECK(foreign_zip_kind(ZipArchive::open(pt2, "mlp")).empty());
  auto noise = std::make_shared<const std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3, 4, 5});
  check_refused(noise, "noise", "not a zip archive");
}
