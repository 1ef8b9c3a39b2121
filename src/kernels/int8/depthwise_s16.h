// Depthwise 2-d convolution of one channel on a widened int16 plane that
// already holds the zero padding (widen_padded_plane in widen.h), int32
// results:
//   out[oh][ow] = sum_{i,j} padded[oh*sh + i*dh][ow*sw + j*dw] * w[i][j]
// Taps outer, output columns inner, so the inner loop is a multiply-add over
// a contiguous row when the stride is 1 (compilers vectorize it: SIMD128 in
// wasm, SSE natively). A plain loop; the test compares it with the
// definition above computed directly. Never allocates.
#pragma once

#include <cstdint>

#include "kernels/int8/widen.h"

namespace pt2web {

// g.channels is ignored (one plane); g.height/width are the unpadded input's,
// `padded` has (height + 2*pad_h) rows of (width + 2*pad_w) values.
void depthwise_s16(const int16_t* padded, const int16_t* weights, const ConvGeometry& g, int32_t* out);

}  // namespace pt2web
