// Row-at-a-time attention for float32 (see attention_rows.h).
#include "kernels/attention/attention_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/math/array_math.h"
#include "kernels/vec4.h"

namespace pt2web {

namespace {

using simd::load4;
using simd::splat4;
using simd::store4;
using simd::Vec4;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// The number of keys query row i can see: the causal triangle hides the
// rest, and their weights are exactly zero after the softmax.
int64_t visible_keys(const AttentionRowsArgs& a, int64_t i) { return a.causal ? std::min(a.S, i + 1) : a.S; }

// scores[j] = sum_e qs[e] * kt[e * S + j] for j < keys, four lanes over keys.
void score_row(const float* qs, const float* kt, int64_t S, int64_t E, int64_t keys, float* scores) {
  int64_t j = 0;
  for (; j + 16 <= keys; j += 16) {
    Vec4 a0 = splat4(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t e = 0; e < E; ++e) {
      const Vec4 qe = splat4(qs + e);
      const float* kr = kt + e * S + j;
      a0 += qe * load4(kr);
      a1 += qe * load4(kr + 4);
      a2 += qe * load4(kr + 8);
      a3 += qe * load4(kr + 12);
    }
    store4(scores + j, a0);
    store4(scores + j + 4, a1);
    store4(scores + j + 8, a2);
    store4(scores + j + 12, a3);
  }
  for (; j + 4 <= keys; j += 4) {
    Vec4 acc = splat4(0.0f);
    for (int64_t e = 0; e < E; ++e) acc += splat4(qs + e) * load4(kt + e * S + j);
    store4(scores + j, acc);
  }
  for (; j < keys; ++j) {
    float acc = 0.0f;
    for (int64_t e = 0; e < E; ++e) acc += qs[e] * kt[e * S + j];
    scores[j] = acc;
  }
}

// out[c] = sum_j w[j] * v[j * v_row + c] for c < Ev, four lanes over c.
void weighted_values(const float* w, const float* v, int64_t v_row, int64_t keys, int64_t Ev, float* out) {
  int64_t c = 0;
  for (; c + 16 <= Ev; c += 16) {
    Vec4 a0 = splat4(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t j = 0; j < keys; ++j) {
      const Vec4 wj = splat4(w + j);
      const float* vr = v + j * v_row + c;
      a0 += wj * load4(vr);
      a1 += wj * load4(vr + 4);
      a2 += wj * load4(vr + 8);
      a3 += wj * load4(vr + 12);
    }
    store4(out + c, a0);
    store4(out + c + 4, a1);
    store4(out + c + 8, a2);
    store4(out + c + 12, a3);
  }
  for (; c + 4 <= Ev; c += 4) {
    Vec4 acc = splat4(0.0f);
    for (int64_t j = 0; j < keys; ++j) acc += splat4(w + j) * load4(v + j * v_row + c);
    store4(out + c, acc);
  }
  for (; c < Ev; ++c) {
    float acc = 0.0f;
    for (int64_t j = 0; j < keys; ++j) acc += w[j] * v[j * v_row + c];
    out[c] = acc;
  }
}

// Adds row i of the mask to scores[0, keys); true when every score is -inf.
bool mask_row_all_inf(const AttentionRowsArgs& a, int64_t i, int64_t keys, float* scores) {
  bool all_inf = true;
  const float* m = a.mask ? a.mask + i * a.mask_row : nullptr;
  for (int64_t j = 0; j < keys; ++j) {
    if (m) scores[j] += m[j * a.mask_col];
    if (!(scores[j] == kNegInf)) all_inf = false;
  }
  return all_inf;
}

}  // namespace

int64_t attention_rows_scratch(int64_t S, int64_t E, int64_t Ev) {
  (void)Ev;
  return E * S + E + S;
}

void attention_rows_f32(const AttentionRowsArgs& a, float* scratch) {
  const int64_t S = a.S, E = a.E;
  float* kt = scratch;     // [E, S]: k transposed, times k_factor
  float* qs = kt + E * S;  // [E]: the query row times q_factor
  float* scores = qs + E;  // [S]
  for (int64_t j = 0; j < S; ++j) {
    const float* kr = a.k + j * a.k_row;
    for (int64_t e = 0; e < E; ++e) kt[e * S + j] = kr[e] * a.k_factor;
  }
  for (int64_t i = 0; i < a.L; ++i) {
    const float* qr = a.q + i * a.q_row;
    for (int64_t e = 0; e < E; ++e) qs[e] = qr[e] * a.q_factor;
    const int64_t keys = visible_keys(a, i);
    score_row(qs, kt, S, E, keys, scores);
    float* out = a.out + i * a.out_row;
    if (keys == 0 || mask_row_all_inf(a, i, keys, scores)) {
      std::fill(out, out + a.Ev, 0.0f);
      if (a.lse) a.lse[i] = 0.0f;
      continue;
    }
    const float lse = softmax_f32(scores, scores, keys);
    if (a.lse) a.lse[i] = lse;
    weighted_values(scores, a.v, a.v_row, keys, a.Ev, out);
  }
}

void attention_rows_reference(const AttentionRowsArgs& a) {
  std::vector<double> s(a.S);
  for (int64_t i = 0; i < a.L; ++i) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < a.S; ++j) {
      float acc = 0.0f;
      for (int64_t e = 0; e < a.E; ++e) acc += (a.q[i * a.q_row + e] * a.q_factor) * (a.k[j * a.k_row + e] * a.k_factor);
      s[j] = acc;
      if (a.mask) s[j] += a.mask[i * a.mask_row + j * a.mask_col];
      if (a.causal && j > i) s[j] = -std::numeric_limits<double>::infinity();
      max = std::max(max, s[j]);
    }
    float* out = a.out + i * a.out_row;
    if (max == -std::numeric_limits<double>::infinity()) {
      std::fill(out, out + a.Ev, 0.0f);
      if (a.lse) a.lse[i] = 0.0f;
      continue;
    }
    double sum = 0.0;
    for (int64_t j = 0; j < a.S; ++j) sum += std::exp(s[j] - max);
    for (int64_t c = 0; c < a.Ev; ++c) {
      double acc = 0.0;
      for (int64_t j = 0; j < a.S; ++j) acc += std::exp(s[j] - max) / sum * a.v[j * a.v_row + c];
      out[c] = static_cast<float>(acc);
    }
    if (a.lse) a.lse[i] = static_cast<float>(max + std::log(sum));
  }
}

}  // namespace pt2web
