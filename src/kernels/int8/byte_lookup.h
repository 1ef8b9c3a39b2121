// A 256-entry table applied to int8/uint8 values: out[i] = table[byte(in[i])],
// indexed by the value's bit pattern (int8 -1 reads entry 255). The integer
// form of dequantize -> elementwise float op -> quantize (any unary op: the
// plan computes the table once by running the three operators on all 256
// values; runtime/quantized_lookup_fusion.h). Plain loop; never allocates.
#pragma once

#include <cstdint>

namespace pt2web {

void byte_lookup(const uint8_t* in, int64_t n, const uint8_t* table, uint8_t* out);

}  // namespace pt2web
