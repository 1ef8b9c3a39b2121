// Depthwise 2-d convolution of one channel on a widened int16 plane that
// already holds the zero padding (widen_padded_plane in widen.h), int32
// results:
//   out[oh][ow] = sum_{i,j} padded[oh*sh + i*dh][ow*sw + j*dw] * w[i][j]
// 3x3 kernels without dilation at stride 2 (MobileNet's downsampling) take
// eight outputs of a row at a time with the nine taps summed in registers
// (fixed-length loops the compilers vectorize: SIMD128 in wasm, SSE
// natively); other shapes, stride 1 included, and each row's last outputs
// the plain loops of depthwise_s16_reference (taps outer, output columns
// inner: a contiguous multiply-add at stride 1, vectorized), which the test
// compares with the definition above computed directly and with the fast
// path on every tail. Never allocates.
#pragma once

#include <cstdint>

#include "kernels/int8/widen.h"

namespace pt2web {

// g.channels is ignored (one plane); g.height/width are the unpadded input's,
// `padded` has (height + 2*pad_h) rows of (width + 2*pad_w) values.
void depthwise_s16(const int16_t* padded, const int16_t* weights, const ConvGeometry& g, int32_t* out);
void depthwise_s16_reference(const int16_t* padded, const int16_t* weights, const ConvGeometry& g, int32_t* out);

}  // namespace pt2web
