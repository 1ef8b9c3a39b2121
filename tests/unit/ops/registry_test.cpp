// The operator table (ops/registry.h), which parses schemas on first lookup:
// every registered schema parses when looked up, under the name it was
// registered with (ops/schema_name.h), and a name not there finds nothing.
#include <catch2/catch.hpp>

#include "ops/registry.h"
#include "ops/schema_name.h"
#include "util/error.h"

using namespace pt2web;

TEST_CASE("every registered schema parses under its registered name", "[registry]") {
  const OpTable& table = op_table();
  REQUIRE(table.size() > 1000);
  for (const std::string& name : table.names()) {
    INFO(name);
    const OpEntry* entry = table.find(name);
    REQUIRE(entry != nullptr);
    CHECK(entry->schema.qualified_name() == name);
    CHECK(entry->kernel != nullptr);
    // A second lookup returns the same, already parsed entry.
    CHECK(table.find(name) == entry);
  }
  CHECK(table.find("aten::no_such_operator.default") == nullptr);
}

TEST_CASE("a schema's qualified name is read without parsing it", "[registry]") {
  CHECK(schema_qualified_name("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor") ==
        "aten::add.Tensor");
  CHECK(schema_qualified_name("aten::relu(Tensor self) -> Tensor") == "aten::relu.default");
  CHECK_THROWS_AS(schema_qualified_name("no argument list"), Error);
}
