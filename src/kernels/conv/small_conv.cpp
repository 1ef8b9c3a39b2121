// Direct 2-d convolution for few channels on small images (see small_conv.h).
#include "kernels/conv/small_conv.h"

#include <algorithm>
#include <vector>

#include "kernels/parallel/thread_pool.h"
#include "kernels/vec4.h"

namespace pt2web {

namespace {

using simd::load4;
using simd::splat4;
using simd::store4;
using simd::Vec4;

// Output planes up to this size, and at most this many input channels
// times taps per output: beyond those the packed GEMM wins (measured on
// wasm SIMD128: 16->16 3x3 on 16x16 direct, 32->32 GEMM).
constexpr int64_t kMaxPlane = 1024;
constexpr int64_t kMaxReduction = 160;

// The image with a zero border: pad rows above and below, pad columns left
// and enough on the right that the last run of four outputs per row reads
// inside the copy.
struct PaddedImage {
  int64_t rows = 0, cols = 0;  // per channel
  const float* data = nullptr;
};

PaddedImage pad_image(const SmallConvShape& s, const float* x) {
  thread_local std::vector<float> storage;
  PaddedImage p;
  p.rows = s.out_h + s.kernel_h - 1;
  p.cols = (s.out_w + 3) / 4 * 4 + s.kernel_w - 1;
  storage.assign(static_cast<size_t>(s.in_channels * p.rows * p.cols), 0.0f);
  for (int64_t c = 0; c < s.in_channels; ++c)
    for (int64_t r = 0; r < s.in_h; ++r) {
      const int64_t pr = r + s.pad_h;
      if (pr < 0 || pr >= p.rows) continue;
      const int64_t first = std::max<int64_t>(0, -s.pad_w), last = std::min(s.in_w, p.cols - s.pad_w);
      if (first < last)
        std::copy(x + (c * s.in_h + r) * s.in_w + first, x + (c * s.in_h + r) * s.in_w + last,
                  storage.data() + (c * p.rows + pr) * p.cols + first + s.pad_w);
    }
  p.data = storage.data();
  return p;
}

// Stores the first `count` (1..4) lanes of v at p.
void store_lanes(float* p, Vec4 v, int64_t count) {
  if (count == 4) return store4(p, v);
  for (int64_t i = 0; i < count; ++i) p[i] = v[i];
}

// Four output channels (weights wc) times two runs of four outputs, starting
// at (r0, c0) and (r1, c1), summed over every input channel and tap onto
// `acc` (which holds the bias). KW > 0: the kernel width known at compile
// time (unrolled); 0: read from s.
template <int KW>
void accumulate_block(const SmallConvShape& s, const PaddedImage& img, const float* const* wc, int64_t r0, int64_t c0,
                      int64_t r1, int64_t c1, Vec4 (&acc)[4][2]) {
  const int64_t kw = KW > 0 ? KW : s.kernel_w, taps = s.kernel_h * kw;
  Vec4 a00 = acc[0][0], a01 = acc[0][1], a10 = acc[1][0], a11 = acc[1][1];
  Vec4 a20 = acc[2][0], a21 = acc[2][1], a30 = acc[3][0], a31 = acc[3][1];
  for (int64_t ci = 0; ci < s.in_channels; ++ci) {
    const float* channel = img.data + ci * img.rows * img.cols;
    for (int64_t i = 0; i < s.kernel_h; ++i) {
      const float* x0 = channel + (r0 + i) * img.cols + c0;
      const float* x1 = channel + (r1 + i) * img.cols + c1;
      const int64_t tap = ci * taps + i * kw;
      for (int64_t j = 0; j < kw; ++j) {
        const Vec4 v0 = load4(x0 + j), v1 = load4(x1 + j);
        const Vec4 w0 = splat4(wc[0] + tap + j), w1 = splat4(wc[1] + tap + j);
        const Vec4 w2 = splat4(wc[2] + tap + j), w3 = splat4(wc[3] + tap + j);
        a00 += w0 * v0, a01 += w0 * v1, a10 += w1 * v0, a11 += w1 * v1;
        a20 += w2 * v0, a21 += w2 * v1, a30 += w3 * v0, a31 += w3 * v1;
      }
    }
  }
  acc[0][0] = a00, acc[0][1] = a01, acc[1][0] = a10, acc[1][1] = a11;
  acc[2][0] = a20, acc[2][1] = a21, acc[3][0] = a30, acc[3][1] = a31;
}

}  // namespace

bool small_conv_applies(const SmallConvShape& s) {
  const int64_t taps = s.kernel_h * s.kernel_w;
  return taps > 1 && s.out_h * s.out_w <= kMaxPlane && s.in_channels * taps <= kMaxReduction && s.out_w >= 3;
}

void small_conv2d_f32(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y) {
  const PaddedImage img = pad_image(s, x);
  const int64_t per_out = s.in_channels * s.kernel_h * s.kernel_w;
  const int64_t runs_per_row = (s.out_w + 3) / 4, runs = s.out_h * runs_per_row, plane = s.out_h * s.out_w;
  for (int64_t co = 0; co < s.out_channels; co += 4) {
    const int64_t nc = std::min<int64_t>(4, s.out_channels - co);
    // Channels past the last are computed from the last one's weights and dropped.
    const float* wc[4];
    for (int64_t c = 0; c < 4; ++c) wc[c] = w + (co + std::min(c, nc - 1)) * per_out;
    for (int64_t run = 0; run < runs; run += 2) {
      const int64_t run1 = std::min(run + 1, runs - 1);
      const int64_t r0 = run / runs_per_row, c0 = run % runs_per_row * 4;
      const int64_t r1 = run1 / runs_per_row, c1 = run1 % runs_per_row * 4;
      Vec4 acc[4][2];
      for (int64_t c = 0; c < 4; ++c) acc[c][0] = acc[c][1] = splat4(b ? b[co + std::min(c, nc - 1)] : 0.0f);
      if (s.kernel_w == 3) accumulate_block<3>(s, img, wc, r0, c0, r1, c1, acc);
      else accumulate_block<0>(s, img, wc, r0, c0, r1, c1, acc);
      const int64_t n0 = std::min<int64_t>(4, s.out_w - c0), n1 = std::min<int64_t>(4, s.out_w - c1);
      for (int64_t c = 0; c < nc; ++c) {
        float* out = y + (co + c) * plane;
        store_lanes(out + r0 * s.out_w + c0, acc[c][0], n0);
        if (run1 != run) store_lanes(out + r1 * s.out_w + c1, acc[c][1], n1);
      }
    }
  }
}

bool try_small_conv2d(const ConvShape& s, const float* x, const float* w, const float* b, float* y) {
  const bool plain_2d = s.input[0] == 1 && s.output[0] == 1 && s.kernel[0] == 1 && s.groups == 1 &&
                        s.stride[1] == 1 && s.stride[2] == 1 && s.dilation[1] == 1 && s.dilation[2] == 1;
  if (!plain_2d) return false;
  SmallConvShape q;
  q.in_channels = s.in_channels, q.out_channels = s.out_channels;
  q.in_h = s.input[1], q.in_w = s.input[2], q.out_h = s.output[1], q.out_w = s.output[2];
  q.kernel_h = s.kernel[1], q.kernel_w = s.kernel[2], q.pad_h = s.pad[1], q.pad_w = s.pad[2];
  if (!small_conv_applies(q)) return false;
  const int64_t in_image = q.in_channels * q.in_h * q.in_w, out_image = q.out_channels * q.out_h * q.out_w;
  const int64_t work = out_image * q.in_channels * q.kernel_h * q.kernel_w;
  parallel::for_each_index(s.batch, work, [&](int64_t n) {
    small_conv2d_f32(q, x + n * in_image, w, b, y + n * out_image);
  });
  return true;
}

void small_conv2d_reference(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y) {
  for (int64_t co = 0; co < s.out_channels; ++co)
    for (int64_t oh = 0; oh < s.out_h; ++oh)
      for (int64_t ow = 0; ow < s.out_w; ++ow) {
        double sum = b ? b[co] : 0.0;
        for (int64_t ci = 0; ci < s.in_channels; ++ci)
          for (int64_t i = 0; i < s.kernel_h; ++i)
            for (int64_t j = 0; j < s.kernel_w; ++j) {
              const int64_t ih = oh - s.pad_h + i, iw = ow - s.pad_w + j;
              if (ih < 0 || ih >= s.in_h || iw < 0 || iw >= s.in_w) continue;
              sum += static_cast<double>(w[((co * s.in_channels + ci) * s.kernel_h + i) * s.kernel_w + j]) *
                     x[(ci * s.in_h + ih) * s.in_w + iw];
            }
        y[(co * s.out_h + oh) * s.out_w + ow] = static_cast<float>(sum);
      }
}

}  // namespace pt2web
