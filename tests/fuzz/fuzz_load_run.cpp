// Fuzzes the whole path a web page takes: LoadedProgram (archive, JSON,
// weights, verifier, kernel lookup) on arbitrary .pt2 bytes, then one run
// with the archive's own example inputs when it has them.
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz_guard.h"
#include "runtime/loaded_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pt2web;
  auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
  fuzz::expect_clean_refusal("fuzz_load_run", [&] {
    LoadedProgram program(bytes, "fuzz.pt2");
    const PyValue* example = program.example_inputs();
    if (!example || example->kind != PyValue::Kind::Tuple || example->items.size() != 2) return;
    program.run(example->items[0], example->items[1]);
  });
  return 0;
}
