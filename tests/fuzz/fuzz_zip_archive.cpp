// Fuzzes ZipArchive: open() on arbitrary bytes, then read() of every entry
// and open_nested() of every entry that could be a nested archive.
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz_guard.h"
#include "io/zip_archive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pt2web;
  fuzz::expect_clean_refusal("fuzz_zip_archive", [&] {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    ZipArchive archive = ZipArchive::open(bytes, "fuzz.zip");
    uint64_t checksum = 0;
    for (const ZipArchive::Entry& entry : archive.entries()) {
      try {
        SharedBytes span = archive.read(entry.name);
        if (span.size > 0) checksum += span.data[0] + span.data[span.size - 1];
        ZipArchive nested = archive.open_nested(entry.name);
        checksum += nested.entries().size();
      } catch (const Error& error) {
        if (error.code() == ErrorCode::Internal) throw;
      }
    }
    (void)checksum;
  });
  return 0;
}
