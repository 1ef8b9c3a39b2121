// The random operators' stream belongs to the loaded program: a seed fixes
// every draw, the stream runs on across runs, and set_random_seed restarts
// it. The program is the mlp fixture with its relu replaced by rand_like, so
// the output depends on every draw.
#include <cstring>

#include "runtime/bad_input_util.h"

using namespace pt2web;
using namespace pt2web::bad_input;

namespace {

std::vector<uint8_t> mlp_with_noise() {
  int renamed = 0;
  std::vector<uint8_t> bytes = with_program_json("mlp", [&](nlohmann::json& program) {
    for (nlohmann::json& node : program.at("graph_module").at("graph").at("nodes"))
      if (node.at("target") == "torch.ops.aten.relu.default") {
        node["target"] = "torch.ops.aten.rand_like.default";
        ++renamed;
      }
  });
  REQUIRE(renamed == 1);
  return bytes;
}

std::vector<float> output_values(LoadedProgram& program, const testing::Case& c) {
  PyValue out = program.run(c.args, c.kwargs);
  const PyValue& leaf = out.kind == PyValue::Kind::Tensor ? out : out.items.at(0);
  Tensor t = leaf.tensor.contiguous();
  std::vector<float> values(static_cast<size_t>(t.numel()));
  std::memcpy(values.data(), t.raw_data(), values.size() * sizeof(float));
  return values;
}

}  // namespace

TEST_CASE("a seed fixes the random operators' draws, run after run", "[loaded_program][random]") {
  testing::Case c = testing::read_cases(testing::fixtures_dir() + "/mlp/cases.json").front();
  std::unique_ptr<LoadedProgram> a = load_bytes(mlp_with_noise());
  std::unique_ptr<LoadedProgram> b = load_bytes(mlp_with_noise());
  const std::vector<float> first = output_values(*a, c);
  CHECK(output_values(*b, c) == first);   // both start at seed 0
  const std::vector<float> second = output_values(*a, c);
  CHECK(second != first);                 // the stream runs on
  a->set_random_seed(0);
  CHECK(output_values(*a, c) == first);   // restarted
  a->set_random_seed(12345);
  b->set_random_seed(12345);
  const std::vector<float> seeded = output_values(*a, c);
  CHECK(seeded != first);
  CHECK(output_values(*b, c) == seeded);
}
