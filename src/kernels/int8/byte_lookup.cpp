#include "kernels/int8/byte_lookup.h"

namespace pt2web {

void byte_lookup(const uint8_t* __restrict in, int64_t n, const uint8_t* __restrict table, uint8_t* __restrict out) {
  for (int64_t i = 0; i < n; ++i) out[i] = table[in[i]];
}

}  // namespace pt2web
