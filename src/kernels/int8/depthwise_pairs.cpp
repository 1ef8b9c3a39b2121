#include "kernels/int8/depthwise_pairs.h"

#include <algorithm>

#include "kernels/int8/int8_lanes.h"

namespace pt2web {

namespace {

// The pair plane's shape for a geometry.
struct PairLayout {
  int64_t stride = 1;
  int64_t words = 0;     // int32 words (value pairs) per pair row
  int64_t half = 0;      // stride 2: where the odd columns start
  int64_t rows = 0;      // pair rows
  int64_t row_len = 0;   // int16 values of one widened padded row
};

int64_t round_up8(int64_t v) { return (v + 7) / 8 * 8; }

PairLayout layout_of(const ConvGeometry& g) {
  PairLayout l;
  l.stride = g.stride_w;
  const int64_t out_w8 = round_up8(g.out_w), padded_w = g.width + 2 * g.pad_w;
  if (l.stride == 1) {
    l.words = out_w8 + g.kernel_w - 1;  // the eight outputs of a chunk read words ow + j .. ow + j + 7
    l.rows = (g.out_h - 1) / 2 + g.kernel_h / 2 + 1;
    l.row_len = std::max(padded_w, l.words);
  } else {
    l.half = out_w8 + (g.kernel_w - 1) / 2;  // even columns: tap j (even) reads words ow + j / 2 .. + 7
    l.words = 2 * l.half;
    l.rows = g.out_h + (g.kernel_h - 1) / 2;
    l.row_len = std::max(padded_w, 2 * l.half);
  }
  return l;
}

// Padded row r of the plane, minus the zero point, zeros outside the input
// and up to l.row_len.
template <typename Q>
void widen_row(const Q* plane, const ConvGeometry& g, int32_t zero_point, const PairLayout& l, int64_t r,
               int16_t* dst) {
  const int64_t ih = r - g.pad_h;
  if (ih < 0 || ih >= g.height) {
    std::fill(dst, dst + l.row_len, int16_t(0));
    return;
  }
  std::fill(dst, dst + g.pad_w, int16_t(0));
  std::fill(dst + g.pad_w + g.width, dst + l.row_len, int16_t(0));
  const Q* src = plane + ih * g.width;
  int16_t* d = dst + g.pad_w;
  int64_t c = 0;
#if defined(__wasm_simd128__) || defined(__SSE2__)
  const int8_lanes::Acc zero = int8_lanes::splat16(zero_point);
  for (; c + 8 <= g.width; c += 8) int8_lanes::store_s16(d + c, int8_lanes::load8_widened(src + c, zero));
#endif
  for (; c < g.width; ++c) d[c] = static_cast<int16_t>(int32_t(src[c]) - zero_point);
}

template <typename Q>
void build_pairs(const Q* plane, const ConvGeometry& g, int32_t zero_point, const PairLayout& l, int16_t* pairs,
                 int16_t* top, int16_t* bottom) {
  for (int64_t t = 0; t < l.rows; ++t) {
    widen_row(plane, g, zero_point, l, 2 * t, top);
    widen_row(plane, g, zero_point, l, 2 * t + 1, bottom);
    int16_t* out = pairs + t * l.words * 2;
    if (l.stride == 1) {
      int64_t c = 0;
#if defined(__wasm_simd128__) || defined(__SSE2__)
      for (; c + 8 <= l.words; c += 8) {
        const int8_lanes::Acc a = int8_lanes::load8(top + c), b = int8_lanes::load8(bottom + c);
        int8_lanes::store_s16(out + 2 * c, int8_lanes::interleave_low16(a, b));
        int8_lanes::store_s16(out + 2 * c + 8, int8_lanes::interleave_high16(a, b));
      }
#endif
      for (; c < l.words; ++c) {
        out[2 * c] = top[c];
        out[2 * c + 1] = bottom[c];
      }
    } else {
      int16_t* odd = out + 2 * l.half;
      for (int64_t c = 0; c < l.half; ++c) {
        out[2 * c] = top[2 * c];
        out[2 * c + 1] = bottom[2 * c];
        odd[2 * c] = top[2 * c + 1];
        odd[2 * c + 1] = bottom[2 * c + 1];
      }
    }
  }
}

// The plain definition, one output at a time (no SIMD on this target).
template <typename Q>
void depthwise_direct(const Q* plane, const ConvGeometry& g, int32_t zero_point, const int16_t* weights,
                      const RequantizedOutput& out) {
  for (int64_t oh = 0; oh < g.out_h; ++oh)
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      int32_t sum = 0;
      for (int64_t i = 0; i < g.kernel_h; ++i)
        for (int64_t j = 0; j < g.kernel_w; ++j) {
          const int64_t ih = oh * g.stride_h - g.pad_h + i, iw = ow * g.stride_w - g.pad_w + j;
          if (ih >= 0 && ih < g.height && iw >= 0 && iw < g.width)
            sum += (int32_t(plane[ih * g.width + iw]) - zero_point) * weights[i * g.kernel_w + j];
        }
      store_requantized(out, 0, oh * g.out_w + ow, &sum, 1);
    }
}

#if defined(__wasm_simd128__) || defined(__SSE2__)
using namespace int8_lanes;

Acc weight_pair(int16_t lo, int16_t hi) {
  return splat_pair(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(lo)) |
                                         (static_cast<uint32_t>(static_cast<uint16_t>(hi)) << 16)));
}

// Where results go: eight outputs of a row at (oh, ow), fewer at the row's end.
struct Emitter {
  const RequantizedOutput& out;
  int64_t out_w;
  bool in_registers;
  LaneEpilogue e;

  void operator()(int64_t oh, int64_t ow, Acc lo, Acc hi) const {
    const int64_t count = std::min<int64_t>(8, out_w - ow), n = oh * out_w + ow;
    if (in_registers) {
      if (out.kind == QuantizedOutputKind::Int8)
        store_requantized_lanes(lo, hi, e, static_cast<int8_t*>(out.data) + n, count);
      else
        store_requantized_lanes(lo, hi, e, static_cast<uint8_t*>(out.data) + n, count);
      return;
    }
    alignas(16) int32_t lanes[8];
    store4(lanes, lo);
    store4(lanes + 4, hi);
    store_requantized(out, 0, n, lanes, count);
  }
};

// Tap (i, j) of a KH x KW kernel, 0 outside it (the zero halves of the pairs).
int16_t tap(const int16_t* w, int kh, int kw, int i, int j) { return i >= 0 && i < kh ? w[i * kw + j] : 0; }

// Stride 1: output rows 2t and 2t + 1 from pair rows t .. t + KH / 2; pair
// row t + p holds kernel rows (2p, 2p + 1) of the even output row and
// (2p - 1, 2p) of the odd one.
template <int KH, int KW>
void stride1(const int16_t* pairs, const ConvGeometry& g, const PairLayout& l, const int16_t* w, const Emitter& emit) {
  constexpr int P = KH / 2 + 1;
  Acc even[P][KW], odd[P][KW];
  for (int p = 0; p < P; ++p)
    for (int j = 0; j < KW; ++j) {
      even[p][j] = weight_pair(tap(w, KH, KW, 2 * p, j), tap(w, KH, KW, 2 * p + 1, j));
      odd[p][j] = weight_pair(tap(w, KH, KW, 2 * p - 1, j), tap(w, KH, KW, 2 * p, j));
    }
  for (int64_t t = 0; 2 * t < g.out_h; ++t) {
    const int16_t* top = pairs + t * l.words * 2;
    const bool second_row = 2 * t + 1 < g.out_h;
    for (int64_t ow = 0; ow < g.out_w; ow += 8) {
      Acc a0 = acc_zero(), a1 = acc_zero(), b0 = acc_zero(), b1 = acc_zero();
      for (int j = 0; j < KW; ++j) {
        // the pair rows' products summed first: the accumulators' chains are adds only
        Acc sa0 = acc_zero(), sa1 = acc_zero(), sb0 = acc_zero(), sb1 = acc_zero();
        for (int p = 0; p < P; ++p) {
          const int16_t* u = top + p * l.words * 2 + 2 * (ow + j);
          const Acc u0 = load8(u), u1 = load8(u + 8);
          sa0 = p == 0 ? dot(u0, even[p][j]) : add32(sa0, dot(u0, even[p][j]));
          sa1 = p == 0 ? dot(u1, even[p][j]) : add32(sa1, dot(u1, even[p][j]));
          sb0 = p == 0 ? dot(u0, odd[p][j]) : add32(sb0, dot(u0, odd[p][j]));
          sb1 = p == 0 ? dot(u1, odd[p][j]) : add32(sb1, dot(u1, odd[p][j]));
        }
        a0 = add32(a0, sa0);
        a1 = add32(a1, sa1);
        b0 = add32(b0, sb0);
        b1 = add32(b1, sb1);
      }
      emit(2 * t, ow, a0, a1);
      if (second_row) emit(2 * t + 1, ow, b0, b1);
    }
  }
}

// Stride 2: output row oh from pair rows oh .. oh + (KH - 1) / 2 (kernel
// rows (2p, 2p + 1)); tap j reads column 2ow + j: even word ow + j / 2 or
// odd word ow + (j - 1) / 2.
template <int KH, int KW>
void stride2(const int16_t* pairs, const ConvGeometry& g, const PairLayout& l, const int16_t* w, const Emitter& emit) {
  constexpr int P = (KH + 1) / 2;
  Acc wp[P][KW];
  for (int p = 0; p < P; ++p)
    for (int j = 0; j < KW; ++j) wp[p][j] = weight_pair(tap(w, KH, KW, 2 * p, j), tap(w, KH, KW, 2 * p + 1, j));
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    const int16_t* top = pairs + oh * l.words * 2;
    for (int64_t ow = 0; ow < g.out_w; ow += 8) {
      Acc a0 = acc_zero(), a1 = acc_zero();
      for (int j = 0; j < KW; ++j) {
        const int64_t at = j % 2 == 0 ? ow + j / 2 : l.half + ow + (j - 1) / 2;
        Acc s0 = acc_zero(), s1 = acc_zero();
        for (int p = 0; p < P; ++p) {
          const int16_t* u = top + p * l.words * 2 + 2 * at;
          s0 = p == 0 ? dot(load8(u), wp[p][j]) : add32(s0, dot(load8(u), wp[p][j]));
          s1 = p == 0 ? dot(load8(u + 8), wp[p][j]) : add32(s1, dot(load8(u + 8), wp[p][j]));
        }
        a0 = add32(a0, s0);
        a1 = add32(a1, s1);
      }
      emit(oh, ow, a0, a1);
    }
  }
}

// The kernel sizes with an instance (depthwise_pairs_fits).
template <int KH, int KW>
void run_pairs(const int16_t* pairs, const ConvGeometry& g, const PairLayout& l, const int16_t* w,
               const Emitter& emit) {
  if (l.stride == 1) stride1<KH, KW>(pairs, g, l, w, emit);
  else stride2<KH, KW>(pairs, g, l, w, emit);
}
#endif

}  // namespace

bool depthwise_pairs_fits(const ConvGeometry& g) {
  const bool size = g.kernel_h == g.kernel_w && (g.kernel_h == 3 || g.kernel_h == 5);
  return size && g.dilation_h == 1 && g.dilation_w == 1 && g.stride_h == g.stride_w &&
         (g.stride_h == 1 || g.stride_h == 2) && g.out_h > 0 && g.out_w > 0;
}

int64_t depthwise_pairs_scratch(const ConvGeometry& g) {
  const PairLayout l = layout_of(g);
  return l.rows * l.words * 2 + 2 * l.row_len;
}

template <typename Q>
void depthwise_pairs(const Q* plane, const ConvGeometry& g, int32_t zero_point, const int16_t* weights,
                     const RequantizedOutput& out, int16_t* scratch) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  const PairLayout l = layout_of(g);
  int16_t* pairs = scratch;
  int16_t* top = pairs + l.rows * l.words * 2;
  build_pairs(plane, g, zero_point, l, pairs, top, top + l.row_len);
  Emitter emit{out, g.out_w, out.kind != QuantizedOutputKind::Float32 && out.ld_n == 1, {}};
  if (emit.in_registers) emit.e = LaneEpilogue(*out.requant, out.channel0, out.kind == QuantizedOutputKind::Int8);
  if (g.kernel_h == 3) run_pairs<3, 3>(pairs, g, l, weights, emit);
  else run_pairs<5, 5>(pairs, g, l, weights, emit);
#else
  (void)scratch;
  depthwise_direct(plane, g, zero_point, weights, out);
#endif
}

template void depthwise_pairs<int8_t>(const int8_t*, const ConvGeometry&, int32_t, const int16_t*,
                                      const RequantizedOutput&, int16_t*);
template void depthwise_pairs<uint8_t>(const uint8_t*, const ConvGeometry&, int32_t, const int16_t*,
                                       const RequantizedOutput&, int16_t*);

}  // namespace pt2web
