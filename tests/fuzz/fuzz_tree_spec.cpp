// Fuzzes TreeSpec::parse, then everything a parsed spec is used for: its
// printout, its leaf paths, and unflatten followed by flatten of as many
// None leaves as it declares (which must give the same count back).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_guard.h"
#include "program/tree_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pt2web;
  std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::expect_clean_refusal("fuzz_tree_spec", [&] {
    TreeSpec spec = TreeSpec::parse(text);
    std::string printed = spec.to_string();
    std::vector<std::string> paths = spec.leaf_paths();
    if (spec.num_leaves > 100000) return;
    std::vector<PyValue> leaves(spec.num_leaves, PyValue::from_int(7));
    PyValue rebuilt = spec.unflatten(leaves);
    std::vector<PyValue> again = spec.flatten(rebuilt, TreeSpec::SequenceMatch::Exact);
    if (again.size() != leaves.size() || paths.size() != leaves.size()) {
      std::fprintf(stderr, "fuzz_tree_spec: %zu leaves, %zu paths, %zu after a round trip of %s\n",
                   leaves.size(), paths.size(), again.size(), printed.c_str());
      std::abort();
    }
  });
  return 0;
}
