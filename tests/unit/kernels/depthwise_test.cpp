// The direct depthwise convolution against a naive loop over every output
// position and kernel tap: strides, padding, dilation, channel
// multipliers, widths around the vector length, and no bias.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "kernels/conv/depthwise_conv.h"

using namespace pt2web;

namespace {

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * scale);
  return v;
}

std::vector<float> naive_depthwise(const DepthwiseShape& s, const std::vector<float>& x, const std::vector<float>& w,
                                   const float* b) {
  const int64_t channels_out = s.channels_in * s.multiplier;
  std::vector<float> y(static_cast<size_t>(channels_out * s.out_h * s.out_w));
  for (int64_t oc = 0; oc < channels_out; ++oc)
    for (int64_t oh = 0; oh < s.out_h; ++oh)
      for (int64_t ow = 0; ow < s.out_w; ++ow) {
        float sum = b ? b[oc] : 0.0f;
        for (int64_t kh = 0; kh < s.kernel_h; ++kh)
          for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
            const int64_t ih = oh * s.stride_h - s.pad_h + kh * s.dilation_h;
            const int64_t iw = ow * s.stride_w - s.pad_w + kw * s.dilation_w;
            if (ih < 0 || ih >= s.in_h || iw < 0 || iw >= s.in_w) continue;
            sum += w[(oc * s.kernel_h + kh) * s.kernel_w + kw] *
                   x[((oc / s.multiplier) * s.in_h + ih) * s.in_w + iw];
          }
        y[(oc * s.out_h + oh) * s.out_w + ow] = sum;
      }
  return y;
}

void check_case(int64_t channels, int64_t multiplier, int64_t in_h, int64_t in_w, int64_t k, int64_t stride,
                int64_t pad, int64_t dilation, bool bias) {
  DepthwiseShape s;
  s.channels_in = channels, s.multiplier = multiplier, s.in_h = in_h, s.in_w = in_w;
  s.kernel_h = s.kernel_w = k, s.stride_h = s.stride_w = stride, s.pad_h = s.pad_w = pad;
  s.dilation_h = s.dilation_w = dilation;
  s.out_h = (in_h + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  s.out_w = (in_w + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  std::vector<float> x = ramp(static_cast<size_t>(channels * in_h * in_w), 0.37f);
  std::vector<float> w = ramp(static_cast<size_t>(channels * multiplier * k * k), 1.3f);
  std::vector<float> b = ramp(static_cast<size_t>(channels * multiplier), 2.1f);
  const float* bias_data = bias ? b.data() : nullptr;
  std::vector<float> want = naive_depthwise(s, x, w, bias_data);
  std::vector<float> got(want.size(), 12345.0f);
  depthwise_conv2d_f32(s, x.data(), w.data(), bias_data, got.data());
  INFO("channels=" << channels << " x" << multiplier << " " << in_h << "x" << in_w << " k=" << k
                   << " stride=" << stride << " pad=" << pad << " dilation=" << dilation);
  for (size_t i = 0; i < want.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-5));
}

}  // namespace

TEST_CASE("depthwise convolution matches a naive loop", "[kernels][conv]") {
  for (int64_t width : {1, 3, 4, 5, 8, 9, 17})
    for (int64_t stride : {1, 2}) check_case(3, 1, 6, width, 3, stride, 1, 1, true);
  check_case(2, 3, 7, 11, 3, 1, 1, 1, true);   // channel multiplier
  check_case(4, 1, 9, 13, 5, 2, 2, 1, false);  // 5x5, stride 2, no bias
  check_case(2, 1, 10, 10, 3, 1, 2, 2, true);  // dilation
  check_case(1, 2, 5, 5, 3, 3, 0, 1, false);   // stride larger than needed
  check_case(2, 1, 2, 3, 3, 1, 1, 1, true);    // kernel larger than the image with padding
  check_case(2, 2, 9, 40, 3, 2, 1, 2, true);   // wide rows: stride-2 vectors with dilation
  check_case(3, 1, 5, 33, 5, 1, 2, 1, false);  // wide rows: 5x5 stride-1 vectors
  check_case(1, 1, 4, 41, 3, 2, 0, 1, true);   // stride 2, no padding: the row-end guard
}
