// The corpus checker's own rules, tested on the OpInfo subset: tie order of
// unstable sorts is forgiven only where the indices select equal values, and
// the known-failures list is read strictly.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <memory>

#include "cases.h"
#include "known_failures.h"
#include "runtime/loaded_program.h"
#include "tie_order_compare.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

const std::string kSubset = testing::conformance_dir() + "/opinfo/";

std::unique_ptr<LoadedProgram> load_folder(const std::string& folder) {
  std::string model = kSubset + folder + "/model.pt2";
  return std::make_unique<LoadedProgram>(std::make_shared<const std::vector<uint8_t>>(testing::read_file(model)), model);
}

// Two positions of a 1-d index tensor whose indices select different input values.
std::pair<int64_t, int64_t> positions_selecting_different_values(const Tensor& input, const Tensor& indices) {
  for (int64_t j = 1; j < indices.numel(); ++j)
    if (input.item_as_double(indices.item_as_int(0)) != input.item_as_double(indices.item_as_int(j))) return {0, j};
  FAIL("every index selects the same value");
  return {0, 0};
}

}  // namespace

TEST_CASE("unstable sort indices are compared through the values they select", "[conformance]") {
  // sort of 8000 booleans: ties everywhere, so torch's index order is one of many.
  auto session = load_folder("sort__default__bool__s0");
  testing::Case c = testing::read_cases(kSubset + "sort__default__bool__s0/cases.json").at(0);
  PyValue got = session->run(c.args, c.kwargs);
  REQUIRE(got.items.size() == 2);
  double max_error = 0;
  CHECK(testing::compare_allowing_tie_order(*session, c, got, &max_error).empty());
  CHECK(max_error == 0);

  // Tied indices swapped: still the same values, still a match.
  const Tensor& input = c.args.items.at(0).tensor;
  PyValue swapped = got;
  swapped.items[1].tensor = got.items[1].tensor.clone();
  int64_t* idx = swapped.items[1].tensor.data<int64_t>();
  for (int64_t j = 1; j < swapped.items[1].tensor.numel(); ++j)
    if (input.item_as_double(idx[j]) == input.item_as_double(idx[0]) && idx[j] != idx[0]) {
      std::swap(idx[0], idx[j]);
      break;
    }
  CHECK(testing::compare_allowing_tie_order(*session, c, swapped, nullptr).empty());

  // Indices that select other values: a mismatch, for the index output only.
  PyValue wrong = got;
  wrong.items[1].tensor = got.items[1].tensor.clone();
  auto [a, b] = positions_selecting_different_values(input, wrong.items[1].tensor);
  std::swap(wrong.items[1].tensor.data<int64_t>()[a], wrong.items[1].tensor.data<int64_t>()[b]);
  std::string r = testing::compare_allowing_tie_order(*session, c, wrong, nullptr);
  CHECK(r.rfind("out[1]", 0) == 0);
}

TEST_CASE("programs without an unstable sort compare integers exactly", "[conformance]") {
  auto session = load_folder("argmax__default__float16__s0");
  testing::Case c = testing::read_cases(kSubset + "argmax__default__float16__s0/cases.json").at(0);
  PyValue got = session->run(c.args, c.kwargs);
  CHECK(testing::compare_allowing_tie_order(*session, c, got, nullptr).empty());
  REQUIRE(got.kind == PyValue::Kind::Tensor);
  REQUIRE(got.tensor.dtype() == DType::Int64);
  got.tensor = got.tensor.clone();
  got.tensor.data<int64_t>()[0] += 1;
  CHECK_FALSE(testing::compare_allowing_tie_order(*session, c, got, nullptr).empty());
}

TEST_CASE("the known-failures list is read strictly", "[conformance]") {
  const std::string path = "known_failures_test.tsv";
  auto read_text = [&](const std::string& text) {
    std::ofstream(path) << text;
    return testing::read_known_failures(path);
  };
  testing::KnownFailures known = read_text("# comment\n\nabs__default__float32__s0\tcore\tUNSUPPORTED: missing x\n");
  REQUIRE(known.size() == 1);
  CHECK(known.begin()->first == std::make_pair(std::string("abs__default__float32__s0"), std::string("core")));
  CHECK(known.begin()->second == "UNSUPPORTED: missing x");
  CHECK_THROWS_WITH(read_text("a\tcore\n"), Catch::Contains(":1: expected folder"));
  CHECK_THROWS_WITH(read_text("a\tboth\twhy\n"), Catch::Contains("neither training nor core"));
  CHECK_THROWS_WITH(read_text("a\tcore\twhy\na\tcore\tagain\n"), Catch::Contains(":2: a (core) is listed twice"));
  std::remove(path.c_str());
  CHECK_THROWS_WITH(testing::read_known_failures(path), Catch::Contains("cannot read"));
}
