// Fuzzes the program JSON reader and the verifier behind it: any text is
// parsed into an ExportedProgram (without weights) and verified.
#include <cstdint>
#include <string>

#include "fuzz_guard.h"
#include "io/program_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pt2web;
  std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::expect_clean_refusal("fuzz_program_json", [&] {
    ExportedProgram program = parse_program_json(text);
    verify_program(program);
  });
  return 0;
}
