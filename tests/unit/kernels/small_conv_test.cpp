// The direct small convolution against plain loops: output widths around
// the four-lane runs (and an odd number of runs), channel counts around the
// block of four, padding, strides, dilation, groups, non-square kernels, no
// bias; and conv_forward / conv_transpose_forward dispatching to it, checked
// against the definitions of convolution and transposed convolution.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "kernels/wave.h"
#include "kernels/conv/convolution.h"
#include "kernels/conv/small_conv.h"

using namespace pt2web;

namespace {

using test::wave;

struct Geometry {
  int64_t cin, cout, h, w, kh, kw;
  int64_t pad_h = 0, pad_w = 0, stride = 1, dilation = 1, groups = 1;
  bool bias = true;
};

void check(const Geometry& t) {
  SmallConvShape s;
  s.in_channels = t.cin, s.out_channels = t.cout, s.groups = t.groups, s.in_h = t.h, s.in_w = t.w;
  s.kernel_h = t.kh, s.kernel_w = t.kw, s.pad_h = t.pad_h, s.pad_w = t.pad_w;
  s.stride_h = s.stride_w = t.stride, s.dilation_h = s.dilation_w = t.dilation;
  s.out_h = (t.h + 2 * t.pad_h - t.dilation * (t.kh - 1) - 1) / t.stride + 1;
  s.out_w = (t.w + 2 * t.pad_w - t.dilation * (t.kw - 1) - 1) / t.stride + 1;
  std::vector<float> x = wave(static_cast<size_t>(t.cin * t.h * t.w), 0.61f);
  std::vector<float> wt = wave(static_cast<size_t>(t.cout * t.cin / t.groups * t.kh * t.kw), 1.7f);
  std::vector<float> b = wave(static_cast<size_t>(t.cout), 2.3f);
  const float* bp = t.bias ? b.data() : nullptr;
  const size_t n = static_cast<size_t>(t.cout * s.out_h * s.out_w);
  std::vector<float> want(n), got(n, 777.0f);
  small_conv2d_reference(s, x.data(), wt.data(), bp, want.data());
  small_conv2d_f32(s, x.data(), wt.data(), bp, got.data());
  INFO("cin=" << t.cin << " cout=" << t.cout << " " << t.h << "x" << t.w << " k=" << t.kh << "x" << t.kw
              << " pad=" << t.pad_h << "," << t.pad_w << " stride=" << t.stride << " dilation=" << t.dilation
              << " groups=" << t.groups << " bias=" << t.bias);
  for (size_t i = 0; i < n; ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-4));
}

}  // namespace

TEST_CASE("small_conv2d_f32 matches plain loops on every tail", "[kernels][small_conv]") {
  for (int64_t w : {3, 4, 5, 7, 8, 9, 13})
    for (int64_t cout : {1, 3, 4, 5, 8}) check({2, cout, 5, w, 3, 3, 1, 1});
  check({1, 16, 8, 8, 3, 3, 1, 1});   // digits_cnn's first layer
  check({16, 32, 4, 4, 3, 3, 1, 1});  // and its second
  check({3, 6, 6, 9, 2, 5, 0, 2, 1, 1, 1, false});
  check({4, 4, 7, 7, 1, 2});
  check({3, 5, 9, 6, 5, 3, 2, 0});
}

TEST_CASE("small_conv2d_f32 handles strides, dilation and groups", "[kernels][small_conv]") {
  check({3, 8, 16, 16, 3, 3, 1, 1, 2});             // vision_zoo's strided stem
  check({12, 12, 8, 8, 3, 3, 2, 2, 1, 2, 3});       // its dilated grouped layer
  check({2, 3, 11, 13, 3, 4, 1, 2, 3, 1, 1});       // stride 3
  check({4, 6, 9, 10, 2, 3, 0, 1, 2, 2, 2, false});  // stride 2, dilation 2, 2 groups
  check({6, 4, 1, 16, 1, 5, 0, 2});                 // a 1-d convolution
}

TEST_CASE("conv_forward runs small float32 convolutions through the direct kernel", "[kernels][small_conv]") {
  ConvShape s;
  s.batch = 3, s.in_channels = 5, s.out_channels = 6;
  s.input = {1, 6, 7}, s.output = {1, 6, 7}, s.kernel = {1, 3, 3}, s.pad = {0, 1, 1};
  SmallConvShape q;
  q.in_channels = 5, q.out_channels = 6, q.in_h = q.out_h = 6, q.in_w = q.out_w = 7;
  q.kernel_h = q.kernel_w = 3, q.pad_h = q.pad_w = 1;
  REQUIRE(small_conv_applies(q));
  std::vector<float> x = wave(3 * 5 * 42, 0.3f), w = wave(6 * 5 * 9, 0.9f), b = wave(6, 1.1f);
  std::vector<float> got(3 * 6 * 42), want(got.size());
  conv_forward<float>(s, x.data(), w.data(), b.data(), got.data());
  for (int64_t n = 0; n < 3; ++n)
    small_conv2d_reference(q, x.data() + n * 5 * 42, w.data(), b.data(), want.data() + n * 6 * 42);
  for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-4));
}

TEST_CASE("conv_transpose_forward runs small float32 ones through the direct kernel", "[kernels][small_conv]") {
  // y[co, o] = b[co] + sum over i, k with o = i*stride - pad + k*dilation of x[ci, i] * w[ci, co, k].
  struct Case {
    int64_t stride, groups, k, cin, cout;
  };
  for (Case t : {Case{1, 1, 3, 4, 6}, Case{1, 2, 3, 4, 6}, Case{2, 1, 3, 4, 6}, Case{2, 2, 3, 4, 6},
                 Case{3, 1, 3, 4, 6}, Case{3, 2, 3, 4, 6}, Case{2, 1, 4, 12, 6}}) {  // the last: vision_zoo's
      const int64_t stride = t.stride, groups = t.groups, k = t.k, cin = t.cin, cout = t.cout;
      const int64_t h = 5, w = 6, pad = 1, dil = stride == 3 ? 2 : 1, out_pad = stride == 3 ? 2 : 0;
      const int64_t oh = (h - 1) * stride - 2 * pad + dil * (k - 1) + 1 + out_pad;
      const int64_t ow = (w - 1) * stride - 2 * pad + dil * (k - 1) + 1 + out_pad;
      ConvShape s;
      s.batch = 2, s.in_channels = cin, s.out_channels = cout, s.groups = groups;
      s.input = {1, h, w}, s.output = {1, oh, ow}, s.kernel = {1, k, k};
      s.stride = {1, stride, stride}, s.pad = {0, pad, pad}, s.dilation = {1, dil, dil};
      const int64_t cin_g = cin / groups, cout_g = cout / groups;
      std::vector<float> x = wave(2 * cin * h * w, 0.37f), wt = wave(cin * cout_g * k * k, 1.3f), b = wave(cout, 0.7f);
      std::vector<float> got(2 * cout * oh * ow, 555.0f), want(got.size());
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t co = 0; co < cout; ++co)
          for (int64_t p = 0; p < oh * ow; ++p) want[(n * cout + co) * oh * ow + p] = b[co];
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t ci = 0; ci < cin; ++ci)
          for (int64_t c = 0; c < cout_g; ++c)
            for (int64_t i = 0; i < h; ++i)
              for (int64_t j = 0; j < w; ++j)
                for (int64_t ki = 0; ki < k; ++ki)
                  for (int64_t kj = 0; kj < k; ++kj) {
                    const int64_t o1 = i * stride - pad + ki * dil, o2 = j * stride - pad + kj * dil;
                    if (o1 < 0 || o1 >= oh || o2 < 0 || o2 >= ow) continue;
                    const int64_t co = ci / cin_g * cout_g + c;
                    want[((n * cout + co) * oh + o1) * ow + o2] +=
                        x[((n * cin + ci) * h + i) * w + j] * wt[((ci * cout_g + c) * k + ki) * k + kj];
                  }
      conv_transpose_forward<float>(s, x.data(), wt.data(), b.data(), got.data());
      INFO("stride=" << stride << " groups=" << groups);
      for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-4));
    }
}
