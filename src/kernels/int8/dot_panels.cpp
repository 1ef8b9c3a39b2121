#include "kernels/int8/dot_panels.h"

#include <algorithm>

#include "kernels/int8/int8_lanes.h"

namespace pt2web {

namespace {

// Packs with value(n, k) for n < N, k < K; zeros elsewhere, panels from
// first_panel on. Full panels and pairs take the branch-free loop.
template <typename Value>
void pack(int64_t N, int64_t K, int16_t* panels, Value value, int64_t first_panel = 0) {
  const int64_t pairs = panel_pairs(K), full_pairs = K / 2;
  for (int64_t p = first_panel; p < panel_count(N); ++p) {
    int16_t* out = panels + p * pairs * 8;
    const int64_t n0 = 4 * p;
    if (n0 + 4 <= N) {
      for (int64_t kp = 0; kp < full_pairs; ++kp, out += 8)
        for (int64_t j = 0; j < 4; ++j) {
          out[2 * j] = value(n0 + j, 2 * kp);
          out[2 * j + 1] = value(n0 + j, 2 * kp + 1);
        }
    } else {
      for (int64_t kp = 0; kp < full_pairs; ++kp, out += 8)
        for (int64_t j = 0; j < 4; ++j) {
          const bool inside = n0 + j < N;
          out[2 * j] = inside ? value(n0 + j, 2 * kp) : int16_t(0);
          out[2 * j + 1] = inside ? value(n0 + j, 2 * kp + 1) : int16_t(0);
        }
    }
    if (pairs > full_pairs) {  // odd K: the last pair's second value is zero
      for (int64_t j = 0; j < 4; ++j) {
        out[2 * j] = n0 + j < N ? value(n0 + j, K - 1) : int16_t(0);
        out[2 * j + 1] = 0;
      }
    }
  }
}

}  // namespace

template <typename Q>
void pack_panels_from_rows(const Q* src, int64_t N, int64_t K, int64_t ld, int32_t zero_point, int16_t* panels) {
  const auto value = [&](int64_t n, int64_t k) { return static_cast<int16_t>(int32_t(src[n * ld + k]) - zero_point); };
  int64_t p = 0;
#if defined(__wasm_simd128__) || defined(__SSE2__)
  {
    // A panel's four rows, eight values (four pairs) each, widened: as
    // 32-bit lanes that is a 4x4 block of pairs, and its transpose is four
    // consecutive pairs of the panel.
    using namespace int8_lanes;
    const int64_t pairs = panel_pairs(K), full_pairs = K / 2;
    const Acc zero = splat16(zero_point);
    for (; 4 * p + 4 <= N; ++p) {
      int16_t* out = panels + p * pairs * 8;
      const Q* row = src + 4 * p * ld;
      int64_t kp = 0;
      for (; 2 * kp + 8 <= K; kp += 4) {
        Acc r0 = load8_widened(row + 2 * kp, zero), r1 = load8_widened(row + ld + 2 * kp, zero);
        Acc r2 = load8_widened(row + 2 * ld + 2 * kp, zero), r3 = load8_widened(row + 3 * ld + 2 * kp, zero);
        transpose4(r0, r1, r2, r3);
        store_s16(out + kp * 8, r0);
        store_s16(out + kp * 8 + 8, r1);
        store_s16(out + kp * 8 + 16, r2);
        store_s16(out + kp * 8 + 24, r3);
      }
      for (; kp < pairs; ++kp)
        for (int64_t j = 0; j < 4; ++j) {
          out[kp * 8 + 2 * j] = value(4 * p + j, 2 * kp);
          out[kp * 8 + 2 * j + 1] = kp < full_pairs ? value(4 * p + j, 2 * kp + 1) : int16_t(0);
        }
    }
  }
#endif
  pack(N, K, panels, value, p);
}

template <typename Q>
void pack_panels_from_columns(const Q* src, int64_t N, int64_t K, int64_t ld, int32_t zero_point,
                              int16_t* panels) {
  const auto value = [&](int64_t n, int64_t k) { return static_cast<int16_t>(int32_t(src[k * ld + n]) - zero_point); };
  int64_t p = 0;
#if defined(__wasm_simd128__) || defined(__SSE2__)
  {
    // Two panels (eight columns) at a time: two source rows (a k pair)
    // widened and interleaved are pair kp of both panels.
    using namespace int8_lanes;
    const int64_t pairs = panel_pairs(K), full_pairs = K / 2;
    const Acc zero = splat16(zero_point);
    for (; 4 * p + 8 <= N; p += 2) {
      int16_t* first = panels + p * pairs * 8;
      int16_t* second = first + pairs * 8;
      const int64_t n0 = 4 * p;
      for (int64_t kp = 0; kp < full_pairs; ++kp) {
        const Acc a = load8_widened(src + 2 * kp * ld + n0, zero);
        const Acc b = load8_widened(src + (2 * kp + 1) * ld + n0, zero);
        store_s16(first + kp * 8, interleave_low16(a, b));
        store_s16(second + kp * 8, interleave_high16(a, b));
      }
      if (pairs > full_pairs)  // odd K: the last pair's second value is zero
        for (int64_t j = 0; j < 4; ++j) {
          first[full_pairs * 8 + 2 * j] = value(n0 + j, K - 1);
          second[full_pairs * 8 + 2 * j] = value(n0 + 4 + j, K - 1);
          first[full_pairs * 8 + 2 * j + 1] = second[full_pairs * 8 + 2 * j + 1] = 0;
        }
    }
  }
#endif
  pack(N, K, panels, value, p);
}

template <typename Q>
void pack_panels_from_patches(const Q* image, const ConvGeometry& g, int32_t zero_point, int16_t* panels) {
  const int64_t K = g.channels * g.kernel_h * g.kernel_w, N = g.out_h * g.out_w, pairs = panel_pairs(K);
  // zeros: the padding, the odd K's last values and the last panel's missing columns
  std::fill(panels, panels + panel_values(N, K), int16_t(0));
  int64_t k = 0;
  for (int64_t c = 0; c < g.channels; ++c)
    for (int64_t i = 0; i < g.kernel_h; ++i)
      for (int64_t j = 0; j < g.kernel_w; ++j, ++k) {
        int16_t* at_k = panels + (k / 2) * 8 + (k & 1);
        const Q* plane = image + c * g.height * g.width;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          const int64_t ih = oh * g.stride_h - g.pad_h + i * g.dilation_h;
          if (ih < 0 || ih >= g.height) continue;
          const Q* row = plane + ih * g.width;
          for (int64_t ow = 0, n = oh * g.out_w; ow < g.out_w; ++ow, ++n) {
            const int64_t iw = ow * g.stride_w - g.pad_w + j * g.dilation_w;
            if (iw >= 0 && iw < g.width)
              at_k[(n >> 2) * pairs * 8 + 2 * (n & 3)] = static_cast<int16_t>(int32_t(row[iw]) - zero_point);
          }
        }
      }
}

void pack_panels_from_s16_rows(const int16_t* src, int64_t N, int64_t K, int64_t ld, int16_t* panels) {
  pack(N, K, panels, [&](int64_t n, int64_t k) { return src[n * ld + k]; });
}

template void pack_panels_from_rows<int8_t>(const int8_t*, int64_t, int64_t, int64_t, int32_t, int16_t*);
template void pack_panels_from_rows<uint8_t>(const uint8_t*, int64_t, int64_t, int64_t, int32_t, int16_t*);
template void pack_panels_from_patches<int8_t>(const int8_t*, const ConvGeometry&, int32_t, int16_t*);
template void pack_panels_from_patches<uint8_t>(const uint8_t*, const ConvGeometry&, int32_t, int16_t*);
template void pack_panels_from_columns<int8_t>(const int8_t*, int64_t, int64_t, int64_t, int32_t, int16_t*);
template void pack_panels_from_columns<uint8_t>(const uint8_t*, int64_t, int64_t, int64_t, int32_t, int16_t*);

}  // namespace pt2web
