// Packing blocks of the implicit column matrix: the columns of a block are
// cut into runs that stay on one output row of one image (a run never
// crosses a panel), then each matrix row (channel, kh, kw) copies every run
// from its input row, zeros where the tap falls into the padding.
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

// One packed row (matrix row of channel ch, tap kh, kw) of every run.
void pack_row(const ConvColumnsF32& m, const std::vector<Run>& runs, int64_t ch, int64_t kh,
              const OutputColumnRange& inside, float* dst) {
  const Im2colShape& s = m.shape;
  for (const Run& r : runs) {
    float* out = dst + r.dst;
    const int64_t ih = r.oh * s.stride_h - s.pad_h + kh * s.dilation_h;
    if (r.image < 0 || ih < 0 || ih >= s.in_h) {
      std::fill(out, out + r.length, 0.0f);
      continue;
    }
    const float* row = m.images + r.image * m.image_stride + (ch * s.in_h + ih) * s.in_w;
    const int64_t end = r.ow + r.length;
    if (s.stride_w == 1 && r.ow >= inside.begin && end <= inside.end) {
      // The whole run inside the input row (the common case).
      const float* from = row + r.ow + inside.shift;
      int64_t t = 0;
      for (; t + 4 <= r.length; t += 4) simd::store4(out + t, simd::load4(from + t));
      for (; t < r.length; ++t) out[t] = from[t];
      continue;
    }
    const int64_t copy_begin = std::clamp(inside.begin, r.ow, end), copy_end = std::clamp(inside.end, copy_begin, end);
    int64_t ow = r.ow;
    for (; ow < copy_begin; ++ow) *out++ = 0.0f;
    if (s.stride_w == 1) {
      for (; ow < copy_end; ++ow) *out++ = row[ow + inside.shift];
    } else {
      for (; ow < copy_end; ++ow) *out++ = row[ow * s.stride_w + inside.shift];
    }
    for (; ow < end; ++ow) *out++ = 0.0f;
  }
}

const float* pack_columns(const void* context, int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* scratch) {
  const ConvColumnsF32& m = *static_cast<const ConvColumnsF32*>(context);
  thread_local std::vector<Run> runs;
  cut_runs(m, kc, j0, nc, runs);
  const int64_t taps = m.shape.kernel_h * m.shape.kernel_w;
  for (int64_t k = 0; k < kc; ++k) {
    const int64_t row = k0 + k, ch = row / taps, tap = row % taps;
    const int64_t kh = tap / m.shape.kernel_w, kw = tap % m.shape.kernel_w;
    pack_row(m, runs, ch, kh, inside_columns(m.shape, kw), scratch + k * kTileCols);
  }
  return scratch;
}

}  // namespace

PanelSourceF32 ConvColumnsF32::source() const { return PanelSourceF32{&pack_columns, this}; }

}  // namespace pt2web
