// 2-d im2col against a naive gather, over strides, padding larger and
// smaller than the kernel reach, dilation, and widths around the tap reach.
#include <catch2/catch.hpp>

#include <vector>

#include "kernels/conv/im2col.h"

using namespace pt2web;

namespace {

std::vector<float> naive_im2col(const Im2colShape& s, const std::vector<float>& image) {
  std::vector<float> cols;
  for (int64_t c = 0; c < s.channels; ++c)
    for (int64_t kh = 0; kh < s.kernel_h; ++kh)
      for (int64_t kw = 0; kw < s.kernel_w; ++kw)
        for (int64_t oh = 0; oh < s.out_h; ++oh)
          for (int64_t ow = 0; ow < s.out_w; ++ow) {
            const int64_t ih = oh * s.stride_h - s.pad_h + kh * s.dilation_h;
            const int64_t iw = ow * s.stride_w - s.pad_w + kw * s.dilation_w;
            const bool inside = ih >= 0 && ih < s.in_h && iw >= 0 && iw < s.in_w;
            cols.push_back(inside ? image[(c * s.in_h + ih) * s.in_w + iw] : 0.0f);
          }
  return cols;
}

void check_case(int64_t in_h, int64_t in_w, int64_t k, int64_t stride, int64_t pad, int64_t dilation) {
  Im2colShape s;
  s.channels = 2, s.in_h = in_h, s.in_w = in_w, s.kernel_h = s.kernel_w = k;
  s.stride_h = s.stride_w = stride, s.pad_h = s.pad_w = pad, s.dilation_h = s.dilation_w = dilation;
  s.out_h = (in_h + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  s.out_w = (in_w + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  REQUIRE(s.out_h > 0);
  REQUIRE(s.out_w > 0);
  std::vector<float> image(static_cast<size_t>(2 * in_h * in_w));
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>(i + 1);
  std::vector<float> want = naive_im2col(s, image);
  std::vector<float> got(want.size(), -1.0f);
  im2col_2d_f32(s, image.data(), got.data());
  INFO(in_h << "x" << in_w << " k=" << k << " stride=" << stride << " pad=" << pad << " dilation=" << dilation);
  CHECK(got == want);
}

}  // namespace

TEST_CASE("2-d im2col matches a naive gather", "[kernels][conv]") {
  for (int64_t w : {1, 2, 3, 5, 8})
    for (int64_t stride : {1, 2, 3})
      for (int64_t pad : {0, 1, 2}) check_case(4, w + 2, 3, stride, pad, 1);
  check_case(7, 9, 3, 1, 2, 2);   // dilation
  check_case(5, 6, 1, 2, 0, 1);   // 1x1 with stride
  check_case(3, 3, 5, 1, 2, 1);   // kernel wider than the image
}
