// Integer kernels of the quantized operators: dot_gemm_s16 (SIMD128 / SSE2)
// against its plain-loop reference on sizes around every tile and vector
// tail, including the extreme values whose sums must not overflow; the
// depthwise convolution (3x3 fast path and plain loops) on its
// zero-bordered plane against the definition computed on the int8 plane
// directly.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "kernels/int8/depthwise_s16.h"
#include "kernels/int8/dot_gemm_s16.h"
#include "kernels/int8/widen.h"

using namespace pt2web;

TEST_CASE("dot_gemm_s16 matches its reference on tail sizes", "[kernels][int8]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(-255, 255);
  const int64_t sizes[] = {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33};
  for (int64_t M : {1, 2, 5})
    for (int64_t N : sizes)
      for (int64_t K : sizes) {
        std::vector<int16_t> a(M * K + 1), b(N * K + 1);
        for (auto& v : a) v = static_cast<int16_t>(value(rng));
        for (auto& v : b) v = static_cast<int16_t>(value(rng));
        // C transposed (ldc_n = M) to exercise both output strides
        std::vector<int32_t> fast(M * N + 1, -1), ref(M * N + 1, -1);
        DotGemmArgs g;
        g.M = M;
        g.N = N;
        g.K = K;
        g.a = a.data();
        g.lda = K;
        g.b = b.data();
        g.ldb = K;
        g.ldc_m = 1;
        g.ldc_n = M;
        g.c = fast.data();
        dot_gemm_s16(g);
        g.c = ref.data();
        dot_gemm_s16_reference(g);
        INFO("M " << M << " N " << N << " K " << K);
        CHECK(fast == ref);
      }
}

TEST_CASE("dot_gemm_s16 sums the largest products without overflow", "[kernels][int8]") {
  const int64_t K = kMaxDotK;
  std::vector<int16_t> a(K, -255), b(4 * K, -255);
  std::vector<int32_t> c(4, 0);
  DotGemmArgs g;
  g.M = 1;
  g.N = 4;
  g.K = K;
  g.a = a.data();
  g.lda = K;
  g.b = b.data();
  g.ldb = K;
  g.c = c.data();
  g.ldc_m = 4;
  dot_gemm_s16(g);
  for (int32_t v : c) CHECK(v == int32_t(K * 255 * 255));
}

TEST_CASE("depthwise_s16 on the padded plane matches the direct definition", "[kernels][int8]") {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> value(-128, 127);
  for (int64_t size : {1, 4, 5, 8, 13, 30})
    for (int64_t stride : {1, 2})
      for (int64_t pad : {0, 1, 2})
        for (int64_t dilation : {1, 2}) {
          ConvGeometry g;
          g.height = size;
          g.width = size + 3;
          g.kernel_h = g.kernel_w = 3;
          g.stride_h = g.stride_w = stride;
          g.pad_h = g.pad_w = pad;
          g.dilation_h = g.dilation_w = dilation;
          const int64_t span_h = g.height + 2 * pad - dilation * 2 - 1, span_w = g.width + 2 * pad - dilation * 2 - 1;
          if (span_h < 0 || span_w < 0) continue;  // the kernel does not fit
          g.out_h = span_h / stride + 1;
          g.out_w = span_w / stride + 1;
          const int32_t zero_point = 5;
          std::vector<int8_t> plane(g.height * g.width);
          for (auto& v : plane) v = static_cast<int8_t>(value(rng));
          std::vector<int16_t> weights(9);
          for (auto& v : weights) v = static_cast<int16_t>(value(rng));
          std::vector<int16_t> padded((g.height + 2 * pad) * (g.width + 2 * pad));
          widen_padded_plane(plane.data(), g.height, g.width, pad, pad, zero_point, padded.data());
          std::vector<int32_t> got(g.out_h * g.out_w);
          depthwise_s16(padded.data(), weights.data(), g, got.data());
          std::vector<int32_t> reference(g.out_h * g.out_w);
          depthwise_s16_reference(padded.data(), weights.data(), g, reference.data());
          CHECK(got == reference);
          for (int64_t oh = 0; oh < g.out_h; ++oh)
            for (int64_t ow = 0; ow < g.out_w; ++ow) {
              int32_t want = 0;
              for (int64_t i = 0; i < 3; ++i)
                for (int64_t j = 0; j < 3; ++j) {
                  const int64_t ih = oh * stride - pad + i * dilation, iw = ow * stride - pad + j * dilation;
                  if (ih >= 0 && ih < g.height && iw >= 0 && iw < g.width)
                    want += (int32_t(plane[ih * g.width + iw]) - zero_point) * weights[i * 3 + j];
                }
              INFO("size " << size << " stride " << stride << " pad " << pad << " dilation " << dilation);
              REQUIRE(got[oh * g.out_w + ow] == want);
            }
        }
}
