// The B operand of the int8 products (dot_gemm_s16.h) packed into
// pair-interleaved panels: panel p, pair kp holds
//   (B[4p+j][2kp], B[4p+j][2kp+1]) for j = 0..3
// (8 int16 values, zero past N and K), so one dot_i16x8 of a splatted pair
// of A with it adds two products into four different outputs.
//
// The packers widen and subtract the zero point on the way, from four
// sources: int8/uint8 rows (a linear layer's activations, B[n][k] =
// src[n*ld + k]), int8/uint8 columns (a 1x1 convolution's input planes,
// B[n][k] = src[k*ld + n]: n is the pixel, k the channel), the patches of
// a convolution (B[n][k] = im2col_s16's rows, gathered straight into the
// panels) and int16 rows already shifted. SIMD where the layout allows
// (rows, columns), plain loops elsewhere; never allocate.
// Ownership: `panels` is the caller's, panel_values(N, K) int16 values.
#pragma once

#include <cstdint>

#include "kernels/int8/widen.h"

namespace pt2web {

inline int64_t panel_pairs(int64_t K) { return (K + 1) / 2; }
inline int64_t panel_count(int64_t N) { return (N + 3) / 4; }
inline int64_t panel_values(int64_t N, int64_t K) { return panel_count(N) * panel_pairs(K) * 8; }

template <typename Q>
void pack_panels_from_rows(const Q* src, int64_t N, int64_t K, int64_t ld, int32_t zero_point, int16_t* panels);

template <typename Q>
void pack_panels_from_columns(const Q* src, int64_t N, int64_t K, int64_t ld, int32_t zero_point,
                              int16_t* panels);

// One image and group: N = g.out_h * g.out_w, K = g.channels * g.kernel_h * g.kernel_w.
template <typename Q>
void pack_panels_from_patches(const Q* image, const ConvGeometry& g, int32_t zero_point, int16_t* panels);

void pack_panels_from_s16_rows(const int16_t* src, int64_t N, int64_t K, int64_t ld, int16_t* panels);

}  // namespace pt2web
