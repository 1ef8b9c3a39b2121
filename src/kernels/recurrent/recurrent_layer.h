// The arithmetic of the recurrent operators (recurrent.cpp): one layer in one
// direction over a whole sequence, on contiguous buffers in the compute type
// (float for float32 and the 16-bit floats, double for float64).
//
// Gate layouts follow ATen: LSTM rows are [i, f, g, o], GRU rows [r, z, n].
// As in ATen's CPU path, the input projection x @ W_ih^T + b_ih is computed
// for all time steps at once and the hidden projection h @ W_hh^T + b_hh once
// per step; the GRU keeps them apart because its new gate is
// n = tanh(x_n + r * (h_n)), with b_hn inside the product with r.
#pragma once

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/gemm/gemm.h"
#include "kernels/math/array_math.h"
#include "kernels/math/vec4_math.h"
#include "kernels/gemm/typed_gemm.h"
#include "tensor/tensor.h"

namespace pt2web {
namespace recurrent {

enum class CellKind { Lstm, Gru, RnnTanh, RnnRelu };

inline int64_t gate_count(CellKind kind) {
  return kind == CellKind::Lstm ? 4 : kind == CellKind::Gru ? 3 : 1;
}

// One direction of one layer, transposed to [in, out] in the compute type:
// float32 weights stay strided views (kernels/gemm reads them in place),
// others are contiguous copies for the plain row-major loop.
struct DirectionWeights {
  Tensor w_ih_t;      // [input, G*H]
  Tensor w_hh_t;      // [Hout, G*H]
  Tensor b_ih, b_hh;  // [G*H], or undefined without biases
  Tensor w_hr_t;      // [H, Hout]: the LSTM projection, or undefined
  int64_t input = 0;
  int64_t hidden = 0;  // H
  int64_t out = 0;     // Hout: the projection size, else H
};

// out[rows, N] = x[rows, K] @ w_t[K, N] (+ bias).
template <typename M>
void project_rows(const M* x, int64_t rows, int64_t K, const Tensor& w_t, const Tensor& bias, M* out) {
  const int64_t N = w_t.size(1);
  if constexpr (std::is_same<M, float>::value) {
    gemm_f32(rows, N, K, MatrixF32{x, K, 1}, MatrixF32{w_t.data<float>(), w_t.strides()[0], w_t.strides()[1]}, out, N,
             false, GemmBias{nullptr, bias.defined() ? bias.data<float>() : nullptr});
    return;
  }
  if (bias.defined())
    for (int64_t r = 0; r < rows; ++r) std::memcpy(out + r * N, bias.data<M>(), sizeof(M) * N);
  attention_family::gemm<M>(rows, N, K, x, K, w_t.data<M>(), N, out, N, bias.defined());
}

// The per-step hidden projection out[B, G*H] = h[B, Hout] @ W_hh^T + b_hh.
// float32 packs W_hh once per sequence into the 16-output panels that
// gemm_packed_weight_t_f32 streams (every step reads the whole weight, which
// the packed panels serve at close to a plain read's rate); other types use
// project_rows. Holds a thread-local buffer that only grows: one projection
// per thread at a time.
template <typename M>
class HiddenProjection {
 public:
  explicit HiddenProjection(const DirectionWeights& w) : w_(w) {
    if constexpr (std::is_same<M, float>::value) {
      const int64_t GH = w.w_hh_t.size(1), Hout = w.w_hh_t.size(0);
      std::vector<float>& packed = packed_storage();
      packed.resize(static_cast<size_t>(packed_weight_floats(GH, Hout)));
      const MatrixF32 w_hh_t{w.w_hh_t.data<float>(), w.w_hh_t.strides()[0], w.w_hh_t.strides()[1]};
      pack_weight_f32(GH, Hout, w_hh_t.transposed(), packed.data());
    }
  }

  void operator()(const M* h, int64_t B, M* out) const {
    if constexpr (std::is_same<M, float>::value) {
      const int64_t GH = w_.w_hh_t.size(1), Hout = w_.w_hh_t.size(0);
      gemm_packed_weight_t_f32(B, GH, Hout, MatrixF32{h, Hout, 1}, packed_storage().data(), out, GH,
                               w_.b_hh.defined() ? w_.b_hh.data<float>() : nullptr);
    } else {
      project_rows<M>(h, B, w_.out, w_.w_hh_t, w_.b_hh, out);
    }
  }

 private:
  static std::vector<float>& packed_storage() {
    thread_local std::vector<float> packed;
    return packed;
  }
  const DirectionWeights& w_;
};

template <typename M>
M sigmoid(M x) {
  return M(1) / (M(1) + std::exp(-x));
}

// Scratch for one row of gate values (per thread, grows only).
inline float* gate_scratch(int64_t n) {
  thread_local std::vector<float> gates;
  if (gates.size() < static_cast<size_t>(n)) gates.resize(static_cast<size_t>(n));
  return gates.data();
}

// Four hidden units of the LSTM cell on four lanes: x and h point at the
// input gate's values, the other gates follow `gate_stride` apart.
inline void lstm_lanes(const float* x, const float* h, int64_t gate_stride, float* cell, float* out) {
  using simd::load4;
  using simd::Vec4;
  const Vec4 in_gate = simd::sigmoid4(load4(h) + load4(x));
  const Vec4 forget_gate = simd::sigmoid4(load4(h + gate_stride) + load4(x + gate_stride));
  const Vec4 cell_gate = simd::tanh4(load4(h + 2 * gate_stride) + load4(x + 2 * gate_stride));
  const Vec4 out_gate = simd::sigmoid4(load4(h + 3 * gate_stride) + load4(x + 3 * gate_stride));
  const Vec4 c = forget_gate * load4(cell) + in_gate * cell_gate;
  simd::store4(cell, c);
  simd::store4(out, simd::tanh4(c) * out_gate);
}

// float32: all four gates and the state update in one pass, four units at a
// time (the last H % 4 units through zero-padded lanes).
inline void lstm_update_f32(const float* xg, const float* hg, float* c, float* h_raw, int64_t B, int64_t H) {
  for (int64_t b = 0; b < B; ++b) {
    const float* x = xg + b * 4 * H;
    const float* h = hg + b * 4 * H;
    float* cell = c + b * H;
    float* out = h_raw + b * H;
    int64_t j = 0;
    for (; j + 4 <= H; j += 4) lstm_lanes(x + j, h + j, H, cell + j, out + j);
    if (j == H) continue;
    float xs[16] = {}, hs[16] = {}, cs[4] = {}, os[4];
    for (int64_t l = 0; l < H - j; ++l) {
      for (int q = 0; q < 4; ++q) xs[q * 4 + l] = x[q * H + j + l], hs[q * 4 + l] = h[q * H + j + l];
      cs[l] = cell[j + l];
    }
    lstm_lanes(xs, hs, 4, cs, os);
    for (int64_t l = 0; l < H - j; ++l) cell[j + l] = cs[l], out[j + l] = os[l];
  }
}

// c <- f*c + i*g, h_raw <- o * tanh(c), from the summed gates of each row.
template <typename M>
void lstm_update(const M* xg, const M* hg, M* c, M* h_raw, int64_t B, int64_t H) {
  if constexpr (std::is_same<M, float>::value) return lstm_update_f32(xg, hg, c, h_raw, B, H);
  for (int64_t b = 0; b < B; ++b) {
    const M* x = xg + b * 4 * H;
    const M* h = hg + b * 4 * H;
    for (int64_t j = 0; j < H; ++j) {
      const M in_gate = sigmoid(h[j] + x[j]);
      const M forget_gate = sigmoid(h[H + j] + x[H + j]);
      const M cell_gate = std::tanh(h[2 * H + j] + x[2 * H + j]);
      const M out_gate = sigmoid(h[3 * H + j] + x[3 * H + j]);
      M& cell = c[b * H + j];
      cell = forget_gate * cell + in_gate * cell_gate;
      h_raw[b * H + j] = out_gate * std::tanh(cell);
    }
  }
}

// float32: the gate activations run vectorized over whole gate rows.
inline void gru_update_f32(const float* xg, const float* hg, float* h, int64_t B, int64_t H) {
  float* g = gate_scratch(3 * H);
  for (int64_t b = 0; b < B; ++b) {
    const float* x = xg + b * 3 * H;
    const float* hh = hg + b * 3 * H;
    for (int64_t j = 0; j < 2 * H; ++j) g[j] = hh[j] + x[j];
    sigmoid_f32(g, g, 2 * H);  // reset and update gates
    for (int64_t j = 0; j < H; ++j) g[2 * H + j] = x[2 * H + j] + hh[2 * H + j] * g[j];
    tanh_f32(g + 2 * H, g + 2 * H, H);  // new gate
    float* state = h + b * H;
    for (int64_t j = 0; j < H; ++j) state[j] = (state[j] - g[2 * H + j]) * g[H + j] + g[2 * H + j];
  }
}

// h <- (h - n) * z + n, the form ATen evaluates.
template <typename M>
void gru_update(const M* xg, const M* hg, M* h, int64_t B, int64_t H) {
  if constexpr (std::is_same<M, float>::value) return gru_update_f32(xg, hg, h, B, H);
  for (int64_t b = 0; b < B; ++b) {
    const M* x = xg + b * 3 * H;
    const M* hh = hg + b * 3 * H;
    for (int64_t j = 0; j < H; ++j) {
      const M reset = sigmoid(hh[j] + x[j]);
      const M update = sigmoid(hh[H + j] + x[H + j]);
      const M fresh = std::tanh(x[2 * H + j] + hh[2 * H + j] * reset);
      M& state = h[b * H + j];
      state = (state - fresh) * update + fresh;
    }
  }
}

// Elman RNN: h <- tanh(x + h) or relu(x + h); relu keeps NaN like ATen's clamp_min.
template <typename M>
void simple_update(const M* xg, const M* hg, M* h, int64_t count, bool relu) {
  for (int64_t i = 0; i < count; ++i) {
    const M v = hg[i] + xg[i];
    h[i] = relu ? (v < M(0) ? M(0) : v) : std::tanh(v);
  }
}

// Runs one direction over x [T, B, input]. h [B, Hout] and c [B, H] (LSTM
// only) hold the initial state and receive the final one; each step's h is
// written to y at y[t, b, y_offset : y_offset + Hout] (rows of y_stride).
template <typename M>
void run_direction(CellKind kind, const DirectionWeights& w, const M* x, int64_t T, int64_t B, M* h, M* c,
                   bool reverse, M* y, int64_t y_stride, int64_t y_offset) {
  const int64_t H = w.hidden, Hout = w.out, GH = gate_count(kind) * H;
  const bool projected = w.w_hr_t.defined();
  std::vector<M> xg(static_cast<size_t>(T * B * GH)), hg(static_cast<size_t>(B * GH));
  std::vector<M> raw(projected ? static_cast<size_t>(B * H) : 0);
  project_rows<M>(x, T * B, w.input, w.w_ih_t, w.b_ih, xg.data());
  const HiddenProjection<M> project_hidden(w);
  for (int64_t s = 0; s < T; ++s) {
    const int64_t t = reverse ? T - 1 - s : s;
    const M* xt = xg.data() + t * B * GH;
    project_hidden(h, B, hg.data());
    switch (kind) {
      case CellKind::Lstm:
        lstm_update<M>(xt, hg.data(), c, projected ? raw.data() : h, B, H);
        if (projected) project_rows<M>(raw.data(), B, H, w.w_hr_t, Tensor(), h);
        break;
      case CellKind::Gru: gru_update<M>(xt, hg.data(), h, B, H); break;
      case CellKind::RnnTanh: simple_update<M>(xt, hg.data(), h, B * H, false); break;
      case CellKind::RnnRelu: simple_update<M>(xt, hg.data(), h, B * H, true); break;
    }
    for (int64_t b = 0; b < B; ++b)
      std::memcpy(y + (t * B + b) * y_stride + y_offset, h + b * Hout, sizeof(M) * Hout);
  }
}

}  // namespace recurrent
}  // namespace pt2web
