// Activation memory planning: buffers whose lifetimes do not overlap share
// arena space, escaping buffers stay on the heap, and a planned run computes
// the same results as the recorded one.
#include <catch2/catch.hpp>

#include "cases.h"
#include "runtime/memory_plan.h"
#include "runtime/loaded_program.h"
#include "test_data_dirs.h"

using namespace pt2web;

TEST_CASE("buffers with disjoint lifetimes share arena space", "[memory_plan]") {
  // a: [0,2)  b: [1,3)  c: [3,4): c can reuse a's space, b cannot.
  std::vector<BufferLifetime> lifetimes = {{1000, 0, 2, nullptr}, {1000, 1, 3, nullptr}, {1000, 3, 4, nullptr},
                                           {500, 4, -1, nullptr}};
  MemoryPlan plan = plan_memory(lifetimes);
  CHECK(plan.offsets[3] == -1);  // escapes: heap
  CHECK(plan.offsets[0] != plan.offsets[1]);
  CHECK((plan.offsets[2] == plan.offsets[0] || plan.offsets[2] == plan.offsets[1]));
  CHECK(plan.arena_bytes == 2 * 1024);  // two 1000-byte buffers, padded to 64-byte multiples
  CHECK(plan.naive_bytes == 3 * 1024);
}

TEST_CASE("the recording allocator logs when storage is released", "[memory_plan]") {
  RecordingAllocator recorder;
  {
    ScopedStorageAllocator scope(&recorder);
    Tensor kept = Tensor::empty(DType::Float32, {4});
    { Tensor temporary = Tensor::empty(DType::Float32, {8}); }
    auto lifetimes = recorder.lifetimes();
    REQUIRE(lifetimes.size() == 2);
    CHECK(lifetimes[0].last == -1);
    CHECK(lifetimes[1].bytes == 32);
    CHECK(lifetimes[1].last > lifetimes[1].first);
  }
  // Outside the scope tensors come from the heap again.
  Tensor plain = Tensor::empty(DType::Float32, {2});
  CHECK(recorder.lifetimes().size() == 2);
}

TEST_CASE("a planned run reuses memory and gives the recorded run's results", "[memory_plan]") {
  std::string dir = testing::fixtures_dir() + "/mlp_dynamic";
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + "/model.core.pt2"));
  LoadedProgram program(bytes, "mlp_dynamic");
  auto cases = testing::read_cases(dir + "/cases.core.json");
  const auto& c = cases.front();
  CHECK(program.memory().planned_bytes == 0);
  PyValue first = program.run(c.args, c.kwargs);
  size_t planned = program.memory().planned_bytes;
  CHECK(planned > 0);
  CHECK(planned <= program.memory().unplanned_bytes);
  for (int i = 0; i < 3; ++i) {
    PyValue again = program.run(c.args, c.kwargs);
    CHECK(testing::compare(again, first, 0, 0, nullptr).empty());
    CHECK(testing::compare(again, c.expected, c.rtol, c.atol, nullptr).empty());
  }
  // The outputs of earlier runs are not overwritten by later ones.
  CHECK(testing::compare(first, c.expected, c.rtol, c.atol, nullptr).empty());
}
