// Fuzzes the restricted unpickler: the input is a whole torch.save zip (the
// seeds are the fixtures' nested state-dict, constant and example-input
// archives; most mutations land in data.pkl or the storages, which are
// stored uncompressed). Every resulting tensor is read end to end so a
// shape or stride reaching past its storage shows up under AddressSanitizer.
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz_guard.h"
#include "io/torch_load.h"

namespace {

using namespace pt2web;

double touch(const PyValue& value) {
  double sum = 0;
  if (value.kind == PyValue::Kind::Tensor && value.tensor.defined()) {
    Tensor t = value.tensor.contiguous();
    const uint8_t* p = static_cast<const uint8_t*>(t.raw_data());
    for (size_t k = 0; k < t.nbytes(); ++k) sum += p[k];
  }
  for (const PyValue& v : value.items) sum += touch(v);
  for (const PyValue& v : value.keys) sum += touch(v);
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
  fuzz::expect_clean_refusal("fuzz_torch_load", [&] {
    PyValue value = torch_load(ZipArchive::open(bytes, "fuzz.pt"));
    volatile double sink = touch(value);
    (void)sink;
  });
  return 0;
}
