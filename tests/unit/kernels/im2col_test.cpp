// 2-d im2col against a naive gather, over strides, padding larger and
// smaller than the kernel reach, dilation, and widths around the tap reach;
// the implicit column matrix (conv_columns.h) multiplied by a weight against
// the reference GEMM on the gathered matrix, over the same geometries, batches
// side by side, output rows that cross packed panels and K blocks.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "kernels/conv/conv_columns.h"
#include "kernels/conv/im2col.h"
#include "kernels/gemm/gemm.h"

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

Im2colShape make_shape(int64_t channels, int64_t in_h, int64_t in_w, int64_t k, int64_t stride, int64_t pad,
                       int64_t dilation) {
  Im2colShape s;
  s.channels = channels, s.in_h = in_h, s.in_w = in_w, s.kernel_h = s.kernel_w = k;
  s.stride_h = s.stride_w = stride, s.pad_h = s.pad_w = pad, s.dilation_h = s.dilation_w = dilation;
  s.out_h = (in_h + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  s.out_w = (in_w + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  return s;
}

void check_case(int64_t in_h, int64_t in_w, int64_t k, int64_t stride, int64_t pad, int64_t dilation) {
  const Im2colShape s = make_shape(2, in_h, in_w, k, stride, pad, dilation);
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

// weight[M, rows] times the implicit columns of `batch` images against the
// reference product with the gathered column matrices side by side.
void check_implicit_product(int64_t M, int64_t batch, const Im2colShape& s) {
  const int64_t image_size = s.channels * s.in_h * s.in_w, plane = s.out_h * s.out_w;
  std::vector<float> images(static_cast<size_t>(batch * image_size));
  for (size_t i = 0; i < images.size(); ++i) images[i] = static_cast<float>((i * 7919) % 23) / 11.0f - 1.0f;
  ConvColumnsF32 cols;
  cols.images = images.data(), cols.image_stride = image_size, cols.batch = batch, cols.shape = s;
  const int64_t rows = cols.rows(), width = cols.columns();
  std::vector<float> gathered(static_cast<size_t>(rows * width));
  for (int64_t n = 0; n < batch; ++n) {
    const std::vector<float> image(images.begin() + n * image_size, images.begin() + (n + 1) * image_size);
    const std::vector<float> one = naive_im2col(s, image);
    for (int64_t r = 0; r < rows; ++r)
      std::copy(one.begin() + r * plane, one.begin() + (r + 1) * plane, gathered.begin() + r * width + n * plane);
  }
  std::vector<float> weight(static_cast<size_t>(M * rows)), bias(static_cast<size_t>(M));
  for (size_t i = 0; i < weight.size(); ++i) weight[i] = static_cast<float>((i * 104729) % 19) / 9.0f - 1.0f;
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = static_cast<float>(i) * 0.25f;
  std::vector<float> want(static_cast<size_t>(M * width)), got(want.size(), -7.0f);
  const MatrixF32 w{weight.data(), rows, 1};
  gemm_f32_reference(M, width, rows, w, MatrixF32{gathered.data(), width, 1}, want.data(), width, false,
                     GemmBias{bias.data(), nullptr});
  gemm_f32(M, width, rows, w, cols.source(), got.data(), width, false, GemmBias{bias.data(), nullptr});
  INFO("M=" << M << " batch=" << batch << " channels=" << s.channels << " " << s.in_h << "x" << s.in_w << " k="
            << s.kernel_h << " stride=" << s.stride_h << " pad=" << s.pad_h << " dilation=" << s.dilation_h);
  for (size_t i = 0; i < want.size(); ++i)
    REQUIRE(std::fabs(got[i] - want[i]) <= 1e-4f * (1.0f + static_cast<float>(rows)));
}

}  // namespace

TEST_CASE("the implicit column matrix multiplies like the gathered one", "[kernels][conv]") {
  for (int64_t w : {1, 3, 5, 17})
    for (int64_t stride : {1, 2})
      for (int64_t pad : {0, 1, 2})
        for (int64_t batch : {1, 3}) check_implicit_product(5, batch, make_shape(2, 4, w + 2, 3, stride, pad, 1));
  check_implicit_product(3, 2, make_shape(3, 7, 9, 3, 1, 2, 2));     // dilation
  check_implicit_product(4, 1, make_shape(2, 3, 3, 5, 1, 2, 1));     // kernel wider than the image
  check_implicit_product(33, 1, make_shape(30, 9, 21, 3, 1, 1, 1));  // rows past one K block (270)
  check_implicit_product(2, 2, make_shape(1, 70, 70, 3, 1, 1, 1));   // columns past one N block (9800)
  // Whole 16-column runs away from the borders (one copy per tap), also
  // with dilation, and wide rows at stride 2 (element by element).
  check_implicit_product(3, 2, make_shape(2, 12, 40, 3, 1, 2, 2));
  check_implicit_product(3, 1, make_shape(2, 9, 41, 3, 2, 1, 1));
}

TEST_CASE("2-d im2col matches a naive gather", "[kernels][conv]") {
  for (int64_t w : {1, 2, 3, 5, 8})
    for (int64_t stride : {1, 2, 3})
      for (int64_t pad : {0, 1, 2}) check_case(4, w + 2, 3, stride, pad, 1);
  check_case(7, 9, 3, 1, 2, 2);   // dilation
  check_case(5, 6, 1, 2, 0, 1);   // 1x1 with stride
  check_case(3, 3, 5, 1, 2, 1);   // kernel wider than the image
}
