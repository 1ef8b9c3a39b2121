// The program fuzzer's generator: turns bytes into a short chain of operator
// calls with schema-valid but extreme arguments, and runs it. Each call
// picks an operator of the op table (higher-order operators excepted), then
// builds every argument from its schema type: small tensors of any dtype
// (zero-sized and scalar ones included, later calls reading earlier
// results), and ints from the edges of the types (0, -1, 2^31 - 1, 2^31,
// 2^32, 2^62, 2^63 - 1, -2^63 and small values), floats including NaN and
// infinities, lists of those, None for optionals.
//
// What may happen is a result or a pt2web::Error blaming the input
// (BadInput, Unsupported, BadProgram, OutOfMemory). Anything else, an
// Internal error included, is a finding: run_op_call_chain returns its
// description. Crashes and sanitizer reports are findings for the harness.
//
// Ownership: none. The storage byte limit (tensor/storage_limit.h) should be
// set by the caller so that huge valid sizes are refused, not allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pt2web::op_fuzz {

// One chain from `data`: the operators called, and the finding ("" when
// none). Deterministic in its input.
struct ChainResult {
  std::vector<std::string> calls;  // qualified names, in order
  std::string finding;
};

ChainResult run_op_call_chain(const uint8_t* data, size_t size);

// The operators the generator chooses from (every table entry it can call).
const std::vector<std::string>& fuzzable_operators();

}  // namespace pt2web::op_fuzz
