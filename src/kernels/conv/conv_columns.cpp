// Packing blocks of the implicit column matrix: the columns of a block are
// cut into runs that stay on one output row of one image (a run never
// crosses a panel), then each run is written down its panel, one row per
// matrix row (channel, kh, kw) of the block: a copy from the input row,
// zeros where the tap falls into the padding. A run away from the image's
// borders is one 16-float copy per matrix row, found by a per-row offset;
// at a border, unit-stride runs are zeros, one copy, zeros; other strides
// go element by element. (Packing cost about a fifth of a 3x3 64->64
// convolution on 56x56 before these copy paths; docs/DECISIONS.md.)
#include "kernels/conv/conv_columns.h"

#include <algorithm>
#include <vector>

#include "kernels/gemm/gemm_packing.h"
#include "kernels/vec4.h"

namespace pt2web {

namespace {

using gemm_detail::kTileCols;

// Columns [ow, ow + length) of output row `oh` of image `image`, written at
// `dst` within each packed row; image < 0 marks the zero padding of the last panel.
struct Run {
  int64_t dst = 0;
  int64_t image = -1;
  int64_t oh = 0, ow = 0, length = 0;
};

void cut_runs(const ConvColumnsF32& m, int64_t kc, int64_t j0, int64_t nc, std::vector<Run>& runs) {
  const int64_t out_w = m.shape.out_w, plane = m.shape.out_h * out_w;
  runs.clear();
  for (int64_t p = 0; p < nc; p += kTileCols) {
    const int64_t panel = (p / kTileCols) * kTileCols * kc;
    const int64_t cols = std::min(kTileCols, nc - p);
    for (int64_t c = 0; c < cols;) {
      const int64_t j = j0 + p + c, pos = j % plane;
      Run r;
      r.dst = panel + c;
      r.image = j / plane, r.oh = pos / out_w, r.ow = pos % out_w;
      r.length = std::min(cols - c, out_w - r.ow);
      runs.push_back(r);
      c += r.length;
    }
    if (cols < kTileCols) runs.push_back(Run{panel + cols, -1, 0, 0, kTileCols - cols});
  }
}

// One matrix row (channel, kh, kw) of a block: where the tap reads within
// an image relative to the input position of a run's first output column,
// and the tap's offsets in input rows and columns.
struct Tap {
  int64_t offset = 0;  // ch*in_h*in_w + kh*dilation_h*in_w + kw*dilation_w
  int64_t dh = 0, dw = 0;
  int64_t kw = 0;
};

void list_taps(const ConvColumnsF32& m, int64_t k0, int64_t kc, std::vector<Tap>& taps) {
  const Im2colShape& s = m.shape;
  const int64_t per_channel = s.kernel_h * s.kernel_w;
  taps.resize(static_cast<size_t>(kc));
  for (int64_t k = 0; k < kc; ++k) {
    const int64_t row = k0 + k, ch = row / per_channel, tap = row % per_channel;
    const int64_t kh = tap / s.kernel_w, kw = tap % s.kernel_w;
    Tap& t = taps[static_cast<size_t>(k)];
    t.dh = kh * s.dilation_h, t.dw = kw * s.dilation_w, t.kw = kw;
    t.offset = ch * s.in_h * s.in_w + t.dh * s.in_w + t.dw;
  }
}

// The run's columns of one tap's row when the stride is not 1, element by
// element (zeros where the tap falls into the padding).
void pack_run_row_slowly(const ConvColumnsF32& m, const Run& r, const Tap& tap, int64_t ih, float* out) {
  const Im2colShape& s = m.shape;
  const OutputColumnRange inside = inside_columns(s, tap.kw);
  const float* row = m.images + r.image * m.image_stride + (tap.offset - tap.dh * s.in_w - tap.dw) + ih * s.in_w;
  const int64_t end = r.ow + r.length;
  const int64_t copy_begin = std::clamp(inside.begin, r.ow, end), copy_end = std::clamp(inside.end, copy_begin, end);
  int64_t ow = r.ow;
  for (; ow < copy_begin; ++ow) *out++ = 0.0f;
  for (; ow < copy_end; ++ow) *out++ = row[ow * s.stride_w + inside.shift];
  for (; ow < end; ++ow) *out++ = 0.0f;
}

// Copies `length` floats; a whole panel width is four vectors.
inline void copy_run(const float* from, int64_t length, float* out) {
  if (length == kTileCols) {
    const simd::Vec4 v0 = simd::load4(from), v1 = simd::load4(from + 4), v2 = simd::load4(from + 8),
                     v3 = simd::load4(from + 12);
    simd::store4(out, v0), simd::store4(out + 4, v1), simd::store4(out + 8, v2), simd::store4(out + 12, v3);
    return;
  }
  int64_t t = 0;
  for (; t + 4 <= length; t += 4) simd::store4(out + t, simd::load4(from + t));
  for (; t < length; ++t) out[t] = from[t];
}

// Every tap's row of one run, written down the run's panel (one row of 16
// floats per tap): the panel is written in order, and a run whose input
// columns are all inside the image (unit stride) is one copy per tap.
void pack_run(const ConvColumnsF32& m, const Run& r, const std::vector<Tap>& taps, float* dst) {
  float* out = dst + r.dst;
  const int64_t kc = static_cast<int64_t>(taps.size());
  if (r.image < 0) {
    for (int64_t k = 0; k < kc; ++k, out += kTileCols) std::fill(out, out + r.length, 0.0f);
    return;
  }
  const Im2colShape& s = m.shape;
  const int64_t ih0 = r.oh * s.stride_h - s.pad_h, iw0 = r.ow * s.stride_w - s.pad_w;
  const int64_t iw_last = iw0 + (r.length - 1) * s.stride_w;
  // The run's first input position in the image's first channel (may lie
  // in the padding: only offsets that land inside are dereferenced).
  const int64_t base = r.image * m.image_stride + ih0 * s.in_w + iw0;
  if (s.stride_w == 1 && r.length == kTileCols && ih0 >= 0 && ih0 + (s.kernel_h - 1) * s.dilation_h < s.in_h &&
      iw0 >= 0 && iw_last + (s.kernel_w - 1) * s.dilation_w < s.in_w) {
    // Every tap inside the image (away from the borders): one copy per tap.
    const float* from = m.images + base;
    for (int64_t k = 0; k < kc; ++k, out += kTileCols) copy_run(from + taps[static_cast<size_t>(k)].offset, kTileCols, out);
    return;
  }
  for (int64_t k = 0; k < kc; ++k, out += kTileCols) {
    const Tap& tap = taps[static_cast<size_t>(k)];
    const int64_t ih = ih0 + tap.dh;
    if (ih < 0 || ih >= s.in_h) {
      std::fill(out, out + r.length, 0.0f);
    } else if (s.stride_w == 1 && iw0 + tap.dw >= 0 && iw_last + tap.dw < s.in_w) {
      copy_run(m.images + base + tap.offset, r.length, out);
    } else if (s.stride_w == 1) {
      // Unit stride at an edge: zeros, the columns inside, zeros.
      const int64_t first = iw0 + tap.dw;  // the input column of the run's first column
      const int64_t inside_begin = std::clamp<int64_t>(-first, 0, r.length);
      const int64_t inside_end = std::clamp<int64_t>(s.in_w - first, inside_begin, r.length);
      std::fill(out, out + inside_begin, 0.0f);
      copy_run(m.images + base + tap.offset + inside_begin, inside_end - inside_begin, out + inside_begin);
      std::fill(out + inside_end, out + r.length, 0.0f);
    } else {
      pack_run_row_slowly(m, r, tap, ih, out);
    }
  }
}

const float* pack_columns(const void* context, int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* scratch) {
  const ConvColumnsF32& m = *static_cast<const ConvColumnsF32*>(context);
  thread_local std::vector<Run> runs;
  thread_local std::vector<Tap> taps;
  cut_runs(m, kc, j0, nc, runs);
  list_taps(m, k0, kc, taps);
  for (const Run& r : runs) pack_run(m, r, taps, scratch);
  return scratch;
}

}  // namespace

PanelSourceF32 ConvColumnsF32::source() const { return PanelSourceF32{&pack_columns, this}; }

}  // namespace pt2web
