// Direct 2-d convolution for few channels on small images (see small_conv.h).
#include "kernels/conv/small_conv.h"

#include <algorithm>
#include <vector>

#include "kernels/parallel/thread_pool.h"
#include "kernels/vec4.h"

namespace pt2web {

namespace {

using simd::Vec4;

// Output planes up to this size, at most this many input channels (per
// group) times taps per output, and kernels up to this width: beyond those
// the packed GEMM wins (wasm SIMD128, on a busy machine: direct 1.2-1.3x
// faster for 1->16 and 16->32 3x3 on 8x8 and 4x4, and 16->16 on 16x16;
// level at 32->32 3x3 on 16x16, reduction 288).
constexpr int64_t kMaxPlane = 1024;
constexpr int64_t kMaxReduction = 256;
constexpr int64_t kMaxKernelWidth = 16;

// The zero-bordered image, each row split into stride_w phases: padded
// column pc is at phase pc % stride_w, index pc / stride_w.
struct PaddedImage {
  int64_t rows = 0;         // per channel
  int64_t phase_cols = 0;   // per phase
  int64_t row_pitch = 0;    // stride_w * phase_cols
  const float* data = nullptr;
};

PaddedImage pad_image(const SmallConvShape& s, const float* x) {
  thread_local std::vector<float> storage;
  PaddedImage p;
  p.rows = (s.out_h - 1) * s.stride_h + (s.kernel_h - 1) * s.dilation_h + 1;
  // Runs of four outputs read up to the rounded-up width.
  p.phase_cols = (s.out_w + 3) / 4 * 4 + (s.kernel_w - 1) * s.dilation_w / s.stride_w + 1;
  p.row_pitch = s.stride_w * p.phase_cols;
  storage.assign(static_cast<size_t>(s.in_channels * p.rows * p.row_pitch), 0.0f);
  for (int64_t c = 0; c < s.in_channels; ++c)
    for (int64_t r = 0; r < s.in_h; ++r) {
      const int64_t pr = r * s.in_step_h + s.pad_h;
      if (pr < 0 || pr >= p.rows) continue;
      const float* src = x + (c * s.in_h + r) * s.in_w;
      float* row = storage.data() + (c * p.rows + pr) * p.row_pitch;
      for (int64_t col = 0; col < s.in_w; ++col) {
        const int64_t pc = col * s.in_step_w + s.pad_w;
        if (pc < 0) continue;
        const int64_t index = pc / s.stride_w;
        if (index >= p.phase_cols) break;
        row[pc % s.stride_w * p.phase_cols + index] = src[col];
      }
    }
  p.data = storage.data();
  return p;
}

// Stores the first `count` (1..4) lanes of v at p.
void store_lanes(float* p, Vec4 v, int64_t count) {
  if (count == 4) return simd::store4(p, v);
  for (int64_t i = 0; i < count; ++i) p[i] = v[i];
}

// Where tap column j of a run starting at output column 0 reads, within a padded row.
struct TapColumns {
  int64_t offset[kMaxKernelWidth];
};

TapColumns tap_columns(const SmallConvShape& s, const PaddedImage& img) {
  TapColumns t{};
  for (int64_t j = 0; j < s.kernel_w; ++j) {
    const int64_t pc = j * s.dilation_w;
    t.offset[j] = pc % s.stride_w * img.phase_cols + pc / s.stride_w;
  }
  return t;
}

// Four output channels (weights wc) times two runs of four outputs, starting
// at (r0, c0) and (r1, c1), summed over the group's input channels (from
// `channels`) and every tap onto `acc` (which holds the bias). KW > 0: the
// kernel width known at compile time (unrolled); 0: read from s. Unit: tap
// column j is at offset j (stride and dilation 1 along the width).
template <int KW, bool Unit>
void accumulate_block(const SmallConvShape& s, const PaddedImage& img, const TapColumns& taps_at,
                      const float* channels, int64_t cin_g, const float* const* wc, int64_t r0, int64_t c0,
                      int64_t r1, int64_t c1, Vec4 (&acc)[4][2]) {
  const int64_t kw = KW > 0 ? KW : s.kernel_w, taps = s.kernel_h * kw;
  const int64_t plane = img.rows * img.row_pitch;
  Vec4 a00 = acc[0][0], a01 = acc[0][1], a10 = acc[1][0], a11 = acc[1][1];
  Vec4 a20 = acc[2][0], a21 = acc[2][1], a30 = acc[3][0], a31 = acc[3][1];
  for (int64_t ci = 0; ci < cin_g; ++ci) {
    const float* channel = channels + ci * plane;
    for (int64_t i = 0; i < s.kernel_h; ++i) {
      const float* x0 = channel + (r0 * s.stride_h + i * s.dilation_h) * img.row_pitch + c0;
      const float* x1 = channel + (r1 * s.stride_h + i * s.dilation_h) * img.row_pitch + c1;
      const int64_t tap = ci * taps + i * kw;
      for (int64_t j = 0; j < kw; ++j) {
        const int64_t at = Unit ? j : taps_at.offset[j];
        const Vec4 v0 = simd::load4(x0 + at), v1 = simd::load4(x1 + at);
        const Vec4 w0 = simd::splat4(wc[0] + tap + j), w1 = simd::splat4(wc[1] + tap + j);
        const Vec4 w2 = simd::splat4(wc[2] + tap + j), w3 = simd::splat4(wc[3] + tap + j);
        a00 += w0 * v0, a01 += w0 * v1, a10 += w1 * v0, a11 += w1 * v1;
        a20 += w2 * v0, a21 += w2 * v1, a30 += w3 * v0, a31 += w3 * v1;
      }
    }
  }
  acc[0][0] = a00, acc[0][1] = a01, acc[1][0] = a10, acc[1][1] = a11;
  acc[2][0] = a20, acc[2][1] = a21, acc[3][0] = a30, acc[3][1] = a31;
}

// Output channels [co, co + nc) of one group (all nc <= 4 in that group).
void channel_block(const SmallConvShape& s, const PaddedImage& img, const TapColumns& taps_at, int64_t co, int64_t nc,
                   const float* w, const float* b, float* y) {
  const int64_t cin_g = s.in_channels / s.groups, cout_g = s.out_channels / s.groups;
  const int64_t per_out = cin_g * s.kernel_h * s.kernel_w;
  const float* channels = img.data + co / cout_g * cin_g * img.rows * img.row_pitch;
  const int64_t runs_per_row = (s.out_w + 3) / 4, runs = s.out_h * runs_per_row, plane = s.out_h * s.out_w;
  // Channels past the last are computed from the last one's weights and dropped.
  const float* wc[4];
  for (int64_t c = 0; c < 4; ++c) wc[c] = w + (co + std::min(c, nc - 1)) * per_out;
  for (int64_t run = 0; run < runs; run += 2) {
    const int64_t run1 = std::min(run + 1, runs - 1);
    const int64_t r0 = run / runs_per_row, c0 = run % runs_per_row * 4;
    const int64_t r1 = run1 / runs_per_row, c1 = run1 % runs_per_row * 4;
    Vec4 acc[4][2];
    for (int64_t c = 0; c < 4; ++c) acc[c][0] = acc[c][1] = simd::splat4(b ? b[co + std::min(c, nc - 1)] : 0.0f);
    const bool unit = s.stride_w == 1 && s.dilation_w == 1;
    if (unit && s.kernel_w == 3) accumulate_block<3, true>(s, img, taps_at, channels, cin_g, wc, r0, c0, r1, c1, acc);
    else if (unit) accumulate_block<0, true>(s, img, taps_at, channels, cin_g, wc, r0, c0, r1, c1, acc);
    else accumulate_block<0, false>(s, img, taps_at, channels, cin_g, wc, r0, c0, r1, c1, acc);
    const int64_t n0 = std::min<int64_t>(4, s.out_w - c0), n1 = std::min<int64_t>(4, s.out_w - c1);
    for (int64_t c = 0; c < nc; ++c) {
      float* out = y + (co + c) * plane;
      store_lanes(out + r0 * s.out_w + c0, acc[c][0], n0);
      if (run1 != run) store_lanes(out + r1 * s.out_w + c1, acc[c][1], n1);
    }
  }
}

// Runs every image of a batch through small_conv2d_f32, split across threads.
void run_images(const SmallConvShape& q, int64_t batch, const float* x, const float* w, const float* b, float* y) {
  const int64_t in_image = q.in_channels * q.in_h * q.in_w, out_image = q.out_channels * q.out_h * q.out_w;
  const int64_t work = out_image * (q.in_channels / q.groups) * q.kernel_h * q.kernel_w;
  parallel::for_each_index(batch, work, [&](int64_t n) {
    small_conv2d_f32(q, x + n * in_image, w, b, y + n * out_image);
  });
}

bool is_2d(const ConvShape& s) { return s.input[0] == 1 && s.output[0] == 1 && s.kernel[0] == 1; }

// The 2-d part of s (everything but the padding and the input step, which
// differ between a convolution and a transposed one).
SmallConvShape plane_shape(const ConvShape& s) {
  SmallConvShape q;
  q.in_channels = s.in_channels, q.out_channels = s.out_channels, q.groups = s.groups;
  q.in_h = s.input[1], q.in_w = s.input[2], q.out_h = s.output[1], q.out_w = s.output[2];
  q.kernel_h = s.kernel[1], q.kernel_w = s.kernel[2];
  q.dilation_h = s.dilation[1], q.dilation_w = s.dilation[2];
  return q;
}

}  // namespace

bool small_conv_applies(const SmallConvShape& s) {
  const int64_t taps = s.kernel_h * s.kernel_w;
  if (s.groups < 1 || s.in_channels % s.groups != 0 || s.out_channels % s.groups != 0) return false;
  if (s.groups == s.in_channels && s.groups > 1) return false;  // depthwise: its own kernel
  return taps > 1 && s.kernel_w <= kMaxKernelWidth && s.out_h * s.out_w <= kMaxPlane && s.out_w >= 3 &&
         s.in_channels / s.groups * taps <= kMaxReduction && s.stride_h >= 1 && s.stride_w >= 1;
}

void small_conv2d_f32(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y) {
  const PaddedImage img = pad_image(s, x);
  const TapColumns taps_at = tap_columns(s, img);
  // Blocks of up to four output channels within a group, split across
  // threads (each reads the one padded copy).
  const int64_t cout_g = s.out_channels / s.groups, blocks_per_group = (cout_g + 3) / 4;
  const int64_t work = 4 * s.out_h * s.out_w * (s.in_channels / s.groups) * s.kernel_h * s.kernel_w;
  parallel::for_each_index(s.groups * blocks_per_group, work, [&](int64_t block) {
    const int64_t g = block / blocks_per_group, co = g * cout_g + block % blocks_per_group * 4;
    channel_block(s, img, taps_at, co, std::min<int64_t>(4, (g + 1) * cout_g - co), w, b, y);
  });
}

bool try_small_conv2d(const ConvShape& s, const float* x, const float* w, const float* b, float* y) {
  if (!is_2d(s)) return false;
  SmallConvShape q = plane_shape(s);
  q.stride_h = s.stride[1], q.stride_w = s.stride[2], q.pad_h = s.pad[1], q.pad_w = s.pad[2];
  if (!small_conv_applies(q)) return false;
  run_images(q, s.batch, x, w, b, y);
  return true;
}

bool try_small_conv_transpose2d(const ConvShape& s, const float* x, const float* w, const float* b, float* y) {
  if (!is_2d(s)) return false;
  SmallConvShape q = plane_shape(s);
  q.in_step_h = s.stride[1], q.in_step_w = s.stride[2];
  // Output o gathers input i where i*stride - pad + k*dilation = o: the
  // input spread `stride` apart behind a border of dilation*(kernel-1) - pad.
  q.pad_h = s.dilation[1] * (s.kernel[1] - 1) - s.pad[1];
  q.pad_w = s.dilation[2] * (s.kernel[2] - 1) - s.pad[2];
  // Strided ones would spend most multiply-adds on the zeros between
  // inputs (3/4 at stride 2: measured 3x slower than GEMM + col2im).
  if (s.stride[1] != 1 || s.stride[2] != 1) return false;
  if (q.pad_h < 0 || q.pad_w < 0 || !small_conv_applies(q)) return false;
  // The weight [in, out/groups, kh, kw] as a convolution's [out, in/groups, kh, kw], flipped.
  const int64_t cin_g = s.in_channels / s.groups, cout_g = s.out_channels / s.groups;
  const int64_t kh = q.kernel_h, kw = q.kernel_w, taps = kh * kw;
  thread_local std::vector<float> flipped;
  flipped.resize(static_cast<size_t>(s.out_channels * cin_g * taps));
  for (int64_t g = 0; g < s.groups; ++g)
    for (int64_t ci = 0; ci < cin_g; ++ci)
      for (int64_t co = 0; co < cout_g; ++co)
        for (int64_t t = 0; t < taps; ++t)
          flipped[((g * cout_g + co) * cin_g + ci) * taps + (taps - 1 - t)] =
              w[((g * cin_g + ci) * cout_g + co) * taps + t];
  run_images(q, s.batch, x, flipped.data(), b, y);
  return true;
}

void small_conv2d_reference(const SmallConvShape& s, const float* x, const float* w, const float* b, float* y) {
  const int64_t cin_g = s.in_channels / s.groups, cout_g = s.out_channels / s.groups;
  for (int64_t co = 0; co < s.out_channels; ++co)
    for (int64_t oh = 0; oh < s.out_h; ++oh)
      for (int64_t ow = 0; ow < s.out_w; ++ow) {
        double sum = b ? b[co] : 0.0;
        for (int64_t ci = 0; ci < cin_g; ++ci)
          for (int64_t i = 0; i < s.kernel_h; ++i)
            for (int64_t j = 0; j < s.kernel_w; ++j) {
              // Position in the spread input, then back to an input element.
              const int64_t ph = oh * s.stride_h + i * s.dilation_h - s.pad_h;
              const int64_t pw = ow * s.stride_w + j * s.dilation_w - s.pad_w;
              if (ph < 0 || pw < 0 || ph % s.in_step_h != 0 || pw % s.in_step_w != 0) continue;
              const int64_t ih = ph / s.in_step_h, iw = pw / s.in_step_w;
              if (ih >= s.in_h || iw >= s.in_w) continue;
              const int64_t c_in = co / cout_g * cin_g + ci;
              sum += static_cast<double>(w[((co * cin_g + ci) * s.kernel_h + i) * s.kernel_w + j]) *
                     x[(c_in * s.in_h + ih) * s.in_w + iw];
            }
        y[(co * s.out_h + oh) * s.out_w + ow] = static_cast<float>(sum);
      }
}

}  // namespace pt2web
