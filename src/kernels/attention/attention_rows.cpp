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

// out[c] = sum_t coef[t] * rows[t * row_stride + c] for c < n, four lanes
// over c: the scores (coef = the query row, rows = k transposed) and the
// output (coef = the weights, rows = v).
void combine_rows(const float* coef, int64_t terms, const float* rows, int64_t row_stride, int64_t n, float* out) {
  int64_t c = 0;
  for (; c + 16 <= n; c += 16) {
    Vec4 a0 = splat4(0.0f), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t t = 0; t < terms; ++t) {
      const Vec4 k = splat4(coef + t);
      const float* r = rows + t * row_stride + c;
      a0 += k * load4(r);
      a1 += k * load4(r + 4);
      a2 += k * load4(r + 8);
      a3 += k * load4(r + 12);
    }
    store4(out + c, a0);
    store4(out + c + 4, a1);
    store4(out + c + 8, a2);
    store4(out + c + 12, a3);
  }
  for (; c + 4 <= n; c += 4) {
    Vec4 acc = splat4(0.0f);
    for (int64_t t = 0; t < terms; ++t) acc += splat4(coef + t) * load4(rows + t * row_stride + c);
    store4(out + c, acc);
  }
  for (; c < n; ++c) {
    float acc = 0.0f;
    for (int64_t t = 0; t < terms; ++t) acc += coef[t] * rows[t * row_stride + c];
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

// scores[j] = sum_e qs[e] * (k[j, e] * k_factor) for j < keys, each key row
// read in place: for a few query rows, transposing k costs more (a strided
// store per element) than the products.
void key_dots(const AttentionRowsArgs& a, const float* qs, int64_t keys, float* scores) {
  const Vec4 factor = splat4(a.k_factor);
  for (int64_t j = 0; j < keys; ++j) {
    const float* kr = a.k + j * a.k_row;
    Vec4 s0 = splat4(0.0f), s1 = s0;
    int64_t e = 0;
    for (; e + 8 <= a.E; e += 8) {
      s0 += load4(qs + e) * (load4(kr + e) * factor);
      s1 += load4(qs + e + 4) * (load4(kr + e + 4) * factor);
    }
    for (; e + 4 <= a.E; e += 4) s0 += load4(qs + e) * (load4(kr + e) * factor);
    float sum = simd::sum4(s0 + s1);
    for (; e < a.E; ++e) sum += qs[e] * (kr[e] * a.k_factor);
    scores[j] = sum;
  }
}

// Up to this many query rows read the keys in place (key_dots).
constexpr int64_t kKeysInPlaceMaxRows = 2;

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
  const bool keys_in_place = a.L <= kKeysInPlaceMaxRows;
  for (int64_t j = 0; !keys_in_place && j < S; ++j) {
    const float* kr = a.k + j * a.k_row;
    for (int64_t e = 0; e < E; ++e) kt[e * S + j] = kr[e] * a.k_factor;
  }
  for (int64_t i = 0; i < a.L; ++i) {
    const float* qr = a.q + i * a.q_row;
    for (int64_t e = 0; e < E; ++e) qs[e] = qr[e] * a.q_factor;
    const int64_t keys = visible_keys(a, i);
    if (keys_in_place) key_dots(a, qs, keys, scores);
    else combine_rows(qs, E, kt, S, keys, scores);
    float* out = a.out + i * a.out_row;
    if (keys == 0 || mask_row_all_inf(a, i, keys, scores)) {
      std::fill(out, out + a.Ev, 0.0f);
      if (a.lse) a.lse[i] = 0.0f;
      continue;
    }
    const float lse = softmax_f32(scores, scores, keys);
    if (a.lse) a.lse[i] = lse;
    combine_rows(scores, keys, a.v, a.v_row, a.Ev, out);
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
