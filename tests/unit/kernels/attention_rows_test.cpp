// The row-at-a-time attention kernel against its plain reference loops:
// key counts and head sizes around the 4- and 16-lane blocks, strided rows,
// causal triangles (also with more queries than keys), additive and
// broadcast masks, fully masked rows, a negative scale and the logsumexp.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/wave.h"
#include "kernels/attention/attention_rows.h"

using namespace pt2web;

namespace {

std::vector<float> wave_03(size_t n, float scale) { return test::wave(n, scale, 0.3f); }

struct Case {
  int64_t L, S, E, Ev;
  bool causal = false;
  int mask = 0;  // 0 none, 1 full [L, S], 2 one row broadcast over queries, 3 with fully masked rows
  float scale = 0.35f;
};

void check(const Case& t) {
  const int64_t pad = 3;  // extra floats per row: strided rows
  std::vector<float> q = wave_03(static_cast<size_t>(t.L * (t.E + pad)), 0.71f);
  std::vector<float> k = wave_03(static_cast<size_t>(t.S * (t.E + pad)), 1.13f);
  std::vector<float> v = wave_03(static_cast<size_t>(t.S * (t.Ev + pad)), 0.53f);
  std::vector<float> m = wave_03(static_cast<size_t>(t.L * t.S), 2.9f);
  const float inf = std::numeric_limits<float>::infinity();
  if (t.mask == 3)
    for (int64_t i = 0; i < t.L; ++i)
      for (int64_t j = 0; j < t.S; ++j)
        if (i % 3 == 1 || j % 2 == 0) m[i * t.S + j] = -inf;
  AttentionRowsArgs a;
  a.q = q.data(), a.q_row = t.E + pad;
  a.k = k.data(), a.k_row = t.E + pad;
  a.v = v.data(), a.v_row = t.Ev + pad;
  if (t.mask) a.mask = m.data(), a.mask_row = t.mask == 2 ? 0 : t.S, a.mask_col = 1;
  a.L = t.L, a.S = t.S, a.E = t.E, a.Ev = t.Ev;
  const float root = std::sqrt(std::fabs(t.scale));
  a.q_factor = t.scale < 0 ? -root : root, a.k_factor = root;
  a.causal = t.causal;
  std::vector<float> want(static_cast<size_t>(t.L * (t.Ev + 1)), -7.0f), got = want;
  std::vector<float> want_lse(static_cast<size_t>(t.L)), got_lse(want_lse.size());
  a.out_row = t.Ev + 1;
  a.out = want.data(), a.lse = want_lse.data();
  attention_rows_reference(a);
  a.out = got.data(), a.lse = got_lse.data();
  std::vector<float> scratch(static_cast<size_t>(attention_rows_scratch(t.S, t.E, t.Ev)));
  attention_rows_f32(a, scratch.data());
  INFO("L=" << t.L << " S=" << t.S << " E=" << t.E << " Ev=" << t.Ev << " causal=" << t.causal << " mask=" << t.mask
            << " scale=" << t.scale);
  for (size_t i = 0; i < want.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(2e-6));
  for (size_t i = 0; i < want_lse.size(); ++i) REQUIRE(got_lse[i] == Approx(want_lse[i]).margin(2e-5));
  if (t.mask == 3) REQUIRE(got[1 * (t.Ev + 1)] == 0.0f);  // query row 1 sees no key: zeros
}

}  // namespace

TEST_CASE("attention_rows_f32 matches the reference on every tail", "[kernels][attention]") {
  for (int64_t S : {1, 3, 4, 5, 16, 17, 37})
    for (int64_t E : {1, 4, 7, 8})
      for (int64_t Ev : {1, 5, 8, 16, 19}) check({3, S, E, Ev});
}

TEST_CASE("attention_rows_f32 with one or two query rows reads the keys in place", "[kernels][attention]") {
  for (int64_t L : {1, 2})
    for (int64_t S : {1, 5, 17, 128})
      for (int64_t E : {1, 4, 7, 8, 12, 64}) check({L, S, E, 8});
  check({1, 40, 16, 16, false, 1});
  check({2, 9, 8, 8, true});
  check({1, 30, 9, 5, false, 2, -0.25f});
}

TEST_CASE("attention_rows_f32 applies causal triangles, masks and the scale sign", "[kernels][attention]") {
  check({6, 6, 8, 8, true});
  check({9, 5, 4, 8, true});  // more queries than keys
  check({2, 21, 8, 8, true});
  check({5, 19, 8, 8, false, 1});
  check({5, 19, 8, 8, false, 2});
  check({7, 18, 8, 8, false, 3});
  check({4, 20, 8, 8, false, 1, -0.5f});
}
