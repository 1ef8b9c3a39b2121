// ExportedProgram.module() semantics: state persists across calls of the
// module (counter_buffer's buffers), train()/eval() and calling the program
// itself fail with torch's messages.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "cases.h"
#include "io/pt2_loader.h"
#include "runtime/exported_module.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

TEST_CASE("module(): stateful calls, train()/eval() and direct calls fail like torch", "[module]") {
  std::string dir = testing::fixtures_dir() + "/counter_buffer";
  auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(dir + "/model.pt2"));
  ExportedProgram program = load_pt2(bytes, "counter_buffer");
  ExportedModule module(program);
  auto cases = testing::read_cases(dir + "/cases.json");
  REQUIRE(cases.size() >= 2);
  // The cases run in order on one module: each sees the buffers the previous left.
  for (const auto& c : cases) {
    if (c.expects_error) continue;
    PyValue out = module(c.args, c.kwargs);
    CHECK(testing::compare(out, c.expected, c.rtol, c.atol, nullptr).empty());
  }
  CHECK_THROWS_WITH(module.train(), "Calling train() is not supported yet.");
  CHECK_THROWS_WITH(module.eval(), "Calling eval() is not supported yet.");
  try {
    call_exported_program(program);
    FAIL("calling the program must fail");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::BadInput);
    CHECK(std::string(e.what()).find("exported_program.module()") != std::string::npos);
  }
}
