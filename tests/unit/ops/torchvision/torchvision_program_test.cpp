// A saved program that names torchvision operators loads like any other
// (graph targets torch.ops.torchvision.*), refuses a bad roi with a
// BadInput naming the operator and the argument, and keeps running
// afterwards.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "cases.h"
#include "runtime/loaded_program.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

std::unique_ptr<LoadedProgram> load_export_fixture(const std::string& name, bool core) {
  const std::string path = testing::export_fixtures_dir() + "/" + name + (core ? "/model.core.pt2" : "/model.pt2");
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(path));
  return std::make_unique<LoadedProgram>(bytes, path);
}

// rois with one row replaced by a batch index the input does not have.
PyValue with_bad_batch_index(PyValue args, int64_t batch) {
  Tensor rois = args.items.at(1).tensor.contiguous().to(DType::Float32, true);
  rois.data<float>()[0] = static_cast<float>(batch);
  args.items[1] = PyValue::from_tensor(rois);
  return args;
}

}  // namespace

TEST_CASE("a torchvision program refuses a roi naming a missing image, then runs on", "[ops][torchvision][errors]") {
  for (bool core : {false, true}) {
    INFO((core ? "core" : "training"));
    auto program = load_export_fixture("tv_roi_align", core);
    const auto cases = testing::read_cases(testing::export_fixtures_dir() + "/tv_roi_align/" +
                                           (core ? "cases.core.json" : "cases.json"));
    const testing::Case& good = cases.front();
    const int64_t batch = good.args.items.at(0).tensor.sizes()[0];
    try {
      program->run(with_bad_batch_index(good.args, batch), good.kwargs);
      FAIL("a roi naming image " << batch << " of " << batch << " ran");
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::BadInput);
      const std::string message = e.what();
      CHECK(message.find("torchvision::roi_align") != std::string::npos);
      CHECK(message.find("'rois'") != std::string::npos);
    }
    CHECK(testing::compare(program->run(good.args, good.kwargs), good.expected, good.rtol, good.atol, nullptr).empty());
  }
}
