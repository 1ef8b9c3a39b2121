// Depthwise 3x3 or 5x5 convolution (dilation 1, stride 1 or 2 in both
// directions, any padding) of one int8 / uint8 channel, requantized straight
// into its output plane: the fast path of MobileNet-style depthwise layers.
//
// The input plane is first widened (minus its zero point, zero in the
// border) into "row pairs": pair row t holds, for every column, the two
// int16 values of padded rows 2t and 2t+1 side by side, so that one
// i32x4.dot_i16x8_s (pmaddwd) adds two vertical taps into four outputs.
// At stride 1 each pair row serves two output rows (3x3: 2t with weights
// (w0, w1) and (w2, 0) on pair rows t and t+1, 2t+1 with (0, w0) and
// (w1, w2); 5x5 likewise over three pair rows); at stride 2 the columns are
// stored evens first, then odds, so the strided taps are contiguous too. Eight outputs of a row accumulate in
// two registers and are requantized there (int8_lanes.h), or through
// store_requantized for float32 outputs and row tails.
//
// Results equal depthwise_s16_reference followed by store_requantized
// (tested on every tail in tests/unit/kernels/int8_depthwise_test.cpp).
// `scratch` holds depthwise_pairs_scratch(g) int16 values (the caller's,
// reused between planes); never allocates, never throws. Without SIMD
// (neither wasm SIMD128 nor SSE2) it runs the reference path.
#pragma once

#include <cstdint>

#include "kernels/int8/requantize.h"
#include "kernels/int8/widen.h"

namespace pt2web {

// Whether depthwise_pairs handles this geometry (3x3 or 5x5, dilation 1, stride 1 or 2).
bool depthwise_pairs_fits(const ConvGeometry& g);
int64_t depthwise_pairs_scratch(const ConvGeometry& g);

// plane: g.height x g.width values of one channel; weights: the kernel's
// taps (row-major) minus their zero point; out: element (0, oh * out_w + ow) of `out`.
template <typename Q>
void depthwise_pairs(const Q* plane, const ConvGeometry& g, int32_t zero_point, const int16_t* weights,
                     const RequantizedOutput& out, int16_t* scratch);

}  // namespace pt2web
