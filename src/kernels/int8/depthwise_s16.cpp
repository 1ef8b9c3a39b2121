#include "kernels/int8/depthwise_s16.h"

#include <algorithm>
#include <cstring>

namespace pt2web {

void depthwise_s16_reference(const int16_t* padded, const int16_t* weights, const ConvGeometry& g, int32_t* out) {
  const int64_t padded_w = g.width + 2 * g.pad_w;
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    int32_t* row = out + oh * g.out_w;
    for (int64_t ow = 0; ow < g.out_w; ++ow) row[ow] = 0;
    for (int64_t i = 0; i < g.kernel_h; ++i) {
      const int16_t* in = padded + (oh * g.stride_h + i * g.dilation_h) * padded_w;
      for (int64_t j = 0; j < g.kernel_w; ++j) {
        const int32_t w = weights[i * g.kernel_w + j];
        const int16_t* x = in + j * g.dilation_w;
        if (g.stride_w == 1) {
          for (int64_t ow = 0; ow < g.out_w; ++ow) row[ow] += int32_t(x[ow]) * w;
        } else {
          for (int64_t ow = 0; ow < g.out_w; ++ow) row[ow] += int32_t(x[ow * g.stride_w]) * w;
        }
      }
    }
  }
}

namespace {

typedef int32_t V4i __attribute__((vector_size(16)));
typedef int16_t V4s __attribute__((vector_size(8)));
typedef int16_t V8s __attribute__((vector_size(16)));

// Four values from p[0], p[S], p[2S], p[3S] as int32 lanes. S = 2 reads
// p[0..7] (the caller keeps that inside the row).
template <int S>
inline V4i four(const int16_t* p) {
  if constexpr (S == 1) {
    V4s v;
    std::memcpy(&v, p, sizeof v);
    return __builtin_convertvector(v, V4i);
  } else {
    V8s v;
    std::memcpy(&v, p, sizeof v);
    const V4s even = __builtin_shufflevector(v, v, 0, 2, 4, 6);
    return __builtin_convertvector(even, V4i);
  }
}

// 3x3, dilation 1, stride S in both directions: four outputs of a row at a
// time, the nine taps accumulated in one register; the row's last outputs
// (fewer than four, or whose stride-2 load would leave the row) one by one.
template <int S>
void depthwise_3x3(const int16_t* padded, const int16_t* w, const ConvGeometry& g, int32_t* out) {
  const int64_t padded_w = g.width + 2 * g.pad_w;
  V4i k[9];
  for (int t = 0; t < 9; ++t) k[t] = V4i{w[t], w[t], w[t], w[t]};
  // the vector loads of a chunk at ow end at (ow + 3) * S + 2 (S = 1) or ow * 2 + 2 + 8 (S = 2)
  int64_t vector_end = g.out_w - 3;
  if (S == 2) vector_end = padded_w < 10 ? 0 : std::min<int64_t>(vector_end, (padded_w - 10) / 2 + 1);
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    const int16_t* r0 = padded + oh * S * padded_w;
    const int16_t* r1 = r0 + padded_w;
    const int16_t* r2 = r1 + padded_w;
    int32_t* o = out + oh * g.out_w;
    int64_t ow = 0;
    for (; ow < vector_end; ow += 4) {
      const int64_t at = ow * S;
      V4i acc = four<S>(r0 + at) * k[0] + four<S>(r0 + at + 1) * k[1] + four<S>(r0 + at + 2) * k[2];
      acc += four<S>(r1 + at) * k[3] + four<S>(r1 + at + 1) * k[4] + four<S>(r1 + at + 2) * k[5];
      acc += four<S>(r2 + at) * k[6] + four<S>(r2 + at + 1) * k[7] + four<S>(r2 + at + 2) * k[8];
      std::memcpy(o + ow, &acc, sizeof acc);
    }
    for (; ow < g.out_w; ++ow) {
      const int64_t at = ow * S;
      int32_t sum = 0;
      for (int j = 0; j < 3; ++j)
        sum += int32_t(r0[at + j]) * w[j] + int32_t(r1[at + j]) * w[3 + j] + int32_t(r2[at + j]) * w[6 + j];
      o[ow] = sum;
    }
  }
}

}  // namespace

void depthwise_s16(const int16_t* padded, const int16_t* weights, const ConvGeometry& g, int32_t* out) {
  const bool three = g.kernel_h == 3 && g.kernel_w == 3 && g.dilation_h == 1 && g.dilation_w == 1;
  if (three && g.stride_h == 1 && g.stride_w == 1) return depthwise_3x3<1>(padded, weights, g, out);
  if (three && g.stride_h == 2 && g.stride_w == 2) return depthwise_3x3<2>(padded, weights, g, out);
  depthwise_s16_reference(padded, weights, g, out);
}

}  // namespace pt2web
