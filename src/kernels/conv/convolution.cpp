// im2col / col2im and the gemm calls behind the convolution ops (see
// convolution.h). Kept free of OpCall and Tensor so faster kernels can
// replace pieces of it one at a time.
#include "kernels/conv/convolution.h"

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "kernels/conv/conv_columns.h"
#include "kernels/conv/depthwise_conv.h"
#include "kernels/conv/im2col.h"
#include "kernels/conv/small_conv.h"
#include "kernels/gemm/gemm.h"
#include "kernels/parallel/thread_pool.h"

namespace pt2web {

namespace {

int64_t volume(const ConvDims& d) { return d[0] * d[1] * d[2]; }

// A 2-d geometry (no depth), as Im2colShape describes it for `channels` input channels.
bool is_2d(const ConvShape& s) { return s.input[0] == 1 && s.output[0] == 1 && s.kernel[0] == 1; }

Im2colShape im2col_shape(const ConvShape& s, int64_t channels) {
  Im2colShape d;
  d.channels = channels;
  d.in_h = s.input[1], d.in_w = s.input[2], d.out_h = s.output[1], d.out_w = s.output[2];
  d.kernel_h = s.kernel[1], d.kernel_w = s.kernel[2], d.stride_h = s.stride[1], d.stride_w = s.stride[2];
  d.pad_h = s.pad[1], d.pad_w = s.pad[2], d.dilation_h = s.dilation[1], d.dilation_w = s.dilation[2];
  return d;
}

// C[M,N] = row_bias (broadcast along rows; null: 0) + A[M,K] * B[K,N] on
// row-major matrices with row strides.
void gemm_rows_bias(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
                    float* C, int64_t ldc, const float* row_bias) {
  gemm_f32(M, N, K, MatrixF32{A, lda, 1}, MatrixF32{B, ldb, 1}, C, ldc, false, GemmBias{row_bias, nullptr});
}

// The plain loops for float64 and int64 (exact integer products, as ATen's
// integer convolution computes them).
template <typename T>
void gemm_rows_bias(int64_t M, int64_t N, int64_t K, const T* A, int64_t lda, const T* B, int64_t ldb, T* C,
                    int64_t ldc, const T* row_bias) {
  for (int64_t i = 0; i < M; ++i) std::fill(C + i * ldc, C + i * ldc + N, row_bias ? row_bias[i] : T(0));
  for (int64_t i = 0; i < M; ++i) {
    T* c = C + i * ldc;
    for (int64_t k = 0; k < K; ++k) {
      const T a = A[i * lda + k];
      const T* b = B + k * ldb;
      for (int64_t j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}

// C[M,N] (+)= A[M,K] * B[K,N] on row-major matrices with row strides.
void gemm(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb, float* C,
          int64_t ldc, bool accumulate) {
  gemm_f32(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t lda, const T* B, int64_t ldb, T* C, int64_t ldc,
          bool accumulate) {
  for (int64_t i = 0; i < M; ++i) {
    T* c = C + i * ldc;
    if (!accumulate) std::fill(c, c + N, T(0));
    for (int64_t k = 0; k < K; ++k) {
      const T a = A[i * lda + k];
      const T* b = B + k * ldb;
      for (int64_t j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}

// A scratch array of n elements, left uninitialized.
template <typename T>
std::unique_ptr<T[]> uninitialized(int64_t n) {
  return std::unique_ptr<T[]>(new T[static_cast<size_t>(n)]);
}

// Walks every (column row, grid position) pair of the im2col matrix: the
// column row is (channel, kd, kh, kw), the grid position (gd, gh, gw); the
// image position is g*stride - pad + k*dilation per dim. visit(col_index,
// image_index) is called for positions inside the image, skip(col_index) for
// those in the padding.
template <typename Visit, typename Skip>
void walk_columns(int64_t channels, const ConvDims& image, const ConvDims& grid, const ConvDims& kernel,
                  const ConvDims& stride, const ConvDims& pad, const ConvDims& dilation, Visit visit, Skip skip) {
  const int64_t grid_size = volume(grid);
  int64_t row = 0;
  for (int64_t ch = 0; ch < channels; ++ch)
    for (int64_t kd = 0; kd < kernel[0]; ++kd)
      for (int64_t kh = 0; kh < kernel[1]; ++kh)
        for (int64_t kw = 0; kw < kernel[2]; ++kw, ++row) {
          int64_t col = row * grid_size;
          for (int64_t gd = 0; gd < grid[0]; ++gd) {
            const int64_t id = gd * stride[0] - pad[0] + kd * dilation[0];
            for (int64_t gh = 0; gh < grid[1]; ++gh) {
              const int64_t ih = gh * stride[1] - pad[1] + kh * dilation[1];
              const bool row_inside = id >= 0 && id < image[0] && ih >= 0 && ih < image[1];
              const int64_t base = ((ch * image[0] + id) * image[1] + ih) * image[2];
              for (int64_t gw = 0; gw < grid[2]; ++gw, ++col) {
                const int64_t iw = gw * stride[2] - pad[2] + kw * dilation[2];
                if (row_inside && iw >= 0 && iw < image[2]) visit(col, base + iw);
                else skip(col);
              }
            }
          }
        }
}

// cols[channels*K, grid] gathered from image[channels, image] (zeros in the padding).
template <typename T>
void im2col(const T* image, int64_t channels, const ConvShape& s, const ConvDims& grid, T* cols) {
  if constexpr (std::is_same<T, float>::value) {
    if (s.input[0] == 1 && grid[0] == 1 && s.kernel[0] == 1) {
      Im2colShape d = im2col_shape(s, channels);
      d.out_h = grid[1], d.out_w = grid[2];
      im2col_2d_f32(d, image, cols);
      return;
    }
  }
  walk_columns(
      channels, s.input, grid, s.kernel, s.stride, s.pad, s.dilation,
      [&](int64_t col, int64_t img) { cols[col] = image[img]; }, [&](int64_t col) { cols[col] = T(0); });
}

// image[channels, image] += scatter of cols[channels*K, grid] (the adjoint of im2col).
template <typename T>
void col2im_add(const T* cols, int64_t channels, const ConvDims& image, const ConvDims& grid, const ConvShape& s,
                T* out) {
  walk_columns(
      channels, image, grid, s.kernel, s.stride, s.pad, s.dilation,
      [&](int64_t col, int64_t img) { out[img] += cols[col]; }, [](int64_t) {});
}

// Each output channel starts from its bias (or zero); the products accumulate onto it.
template <typename T>
void fill_bias(T* y, int64_t channels, int64_t plane, const T* b) {
  for (int64_t ch = 0; ch < channels; ++ch) std::fill(y + ch * plane, y + (ch + 1) * plane, b ? b[ch] : T(0));
}

bool is_pointwise(const ConvShape& s) {
  for (int i = 0; i < 3; ++i)
    if (s.kernel[i] != 1 || s.stride[i] != 1 || s.pad[i] != 0 || s.input[i] != s.output[i]) return false;
  return true;
}

// One input channel per group, over at most two spatial dims: the direct
// depthwise kernel applies (float32 only).
bool is_depthwise_2d(const ConvShape& s) {
  return s.groups == s.in_channels && s.groups > 1 && s.input[0] == 1 && s.output[0] == 1 && s.kernel[0] == 1;
}

DepthwiseShape depthwise_shape(const ConvShape& s) {
  DepthwiseShape d;
  d.channels_in = s.in_channels;
  d.multiplier = s.out_channels / s.groups;
  d.in_h = s.input[1], d.in_w = s.input[2], d.out_h = s.output[1], d.out_w = s.output[2];
  d.kernel_h = s.kernel[1], d.kernel_w = s.kernel[2];
  d.stride_h = s.stride[1], d.stride_w = s.stride[2];
  d.pad_h = s.pad[1], d.pad_w = s.pad[2];
  d.dilation_h = s.dilation[1], d.dilation_w = s.dilation[2];
  return d;
}

template <typename T>
bool try_depthwise(const ConvShape&, const T*, const T*, const T*, T*) {
  return false;
}

template <>
bool try_depthwise<float>(const ConvShape& s, const float* x, const float* w, const float* b, float* y) {
  if (!is_depthwise_2d(s)) return false;
  const DepthwiseShape d = depthwise_shape(s);
  const int64_t in_image = s.in_channels * volume(s.input), out_image = s.out_channels * volume(s.output);
  for (int64_t n = 0; n < s.batch; ++n) depthwise_conv2d_f32(d, x + n * in_image, w, b, y + n * out_image);
  return true;
}

}  // namespace

// Output planes smaller than this are computed for the whole batch in one
// product: per image, the product would be too narrow to run efficiently.
constexpr int64_t kBatchedPlaneLimit = 512;

// y[N, C_out, plane] from the product of all images [C_out, N*plane].
template <typename T>
void scatter_images(const ConvShape& s, const T* product, T* y) {
  const int64_t out_plane = volume(s.output), width = s.batch * out_plane;
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t co = 0; co < s.out_channels; ++co)
      std::copy(product + co * width + n * out_plane, product + co * width + (n + 1) * out_plane,
                y + (n * s.out_channels + co) * out_plane);
}

// One product for all images: the column matrices of the images side by
// side, [Cin*K, N*plane], then the result [Cout, N*plane] scattered to
// [N, Cout, plane]. Ungrouped convolutions only.
template <typename T>
void conv_forward_batched(const ConvShape& s, const T* x, const T* w, const T* b, T* y) {
  const int64_t in_plane = volume(s.input), out_plane = volume(s.output), rows = s.in_channels * volume(s.kernel);
  const int64_t width = s.batch * out_plane;
  // Every element of the three buffers is written before it is read, so
  // they are left uninitialized (no zero-filling pass).
  auto image_cols = uninitialized<T>(rows * out_plane);
  auto cols = uninitialized<T>(rows * width), product = uninitialized<T>(s.out_channels * width);
  for (int64_t n = 0; n < s.batch; ++n) {
    const T* xn = x + n * s.in_channels * in_plane;
    const T* source = xn;
    if (!is_pointwise(s)) {
      im2col(xn, s.in_channels, s, s.output, image_cols.get());
      source = image_cols.get();
    }
    for (int64_t r = 0; r < rows; ++r)
      std::copy(source + r * out_plane, source + (r + 1) * out_plane, cols.get() + r * width + n * out_plane);
  }
  gemm_rows_bias(s.out_channels, width, rows, w, rows, cols.get(), width, product.get(), width, b);
  scatter_images(s, product.get(), y);
}

// Float32 2-d convolutions that need a column matrix multiply the weight
// by it without writing it (conv_columns.h): its blocks are packed straight
// from the input. Small planes of a batch are one product over all images.
template <typename T>
bool try_implicit_gemm(const ConvShape&, const T*, const T*, const T*, T*) {
  return false;
}

template <>
bool try_implicit_gemm<float>(const ConvShape& s, const float* x, const float* w, const float* b, float* y) {
  if (!is_2d(s) || is_pointwise(s)) return false;
  const int64_t in_plane = volume(s.input), out_plane = volume(s.output);
  const int64_t cin_g = s.in_channels / s.groups, cout_g = s.out_channels / s.groups;
  ConvColumnsF32 cols;
  cols.shape = im2col_shape(s, cin_g);
  const int64_t rows = cols.rows();
  if (s.groups == 1 && s.batch > 1 && out_plane < kBatchedPlaneLimit) {
    cols.images = x, cols.image_stride = s.in_channels * in_plane, cols.batch = s.batch;
    auto product = uninitialized<float>(s.out_channels * cols.columns());
    const int64_t width = cols.columns();
    gemm_f32(s.out_channels, width, rows, MatrixF32{w, rows, 1}, cols.source(), product.get(), width, false,
             GemmBias{b, nullptr});
    scatter_images(s, product.get(), y);
    return true;
  }
  // One product per image and group. With several per thread they are
  // split across threads whole (each product then runs on one thread): a
  // group's product is often too small to split well itself.
  const int64_t products = s.batch * s.groups;
  auto product = [&](int64_t index) {
    const int64_t n = index / s.groups, g = index % s.groups;
    ConvColumnsF32 group_cols = cols;
    group_cols.images = x + (n * s.in_channels + g * cin_g) * in_plane;
    gemm_f32(cout_g, out_plane, rows, MatrixF32{w + g * cout_g * rows, rows, 1}, group_cols.source(),
             y + (n * s.out_channels + g * cout_g) * out_plane, out_plane, false,
             GemmBias{b ? b + g * cout_g : nullptr, nullptr});
  };
  if (products >= 2 * parallel::thread_count()) {
    parallel::for_each_index(products, cout_g * out_plane * rows, product);
  } else {
    for (int64_t index = 0; index < products; ++index) product(index);
  }
  return true;
}

template <typename T>
void conv_forward(const ConvShape& s, const T* x, const T* w, const T* b, T* y) {
  const int64_t in_plane = volume(s.input), out_plane = volume(s.output), K = volume(s.kernel);
  const int64_t cin_g = s.in_channels / s.groups, cout_g = s.out_channels / s.groups;
  if (try_depthwise(s, x, w, b, y)) return;
  if constexpr (std::is_same<T, float>::value) if (try_small_conv2d(s, x, w, b, y)) return;
  if (try_implicit_gemm(s, x, w, b, y)) return;
  if (s.groups == 1 && s.batch > 1 && out_plane < kBatchedPlaneLimit) return conv_forward_batched(s, x, w, b, y);
  // A 1x1 kernel with unit stride and no padding needs no im2col: the input is the column matrix.
  const bool pointwise = is_pointwise(s);
  auto cols = uninitialized<T>(pointwise ? 0 : s.in_channels * K * out_plane);  // im2col writes all of it
  for (int64_t n = 0; n < s.batch; ++n) {
    const T* xn = x + n * s.in_channels * in_plane;
    T* yn = y + n * s.out_channels * out_plane;
    const T* col_data = xn;
    if (!pointwise) {
      im2col(xn, s.in_channels, s, s.output, cols.get());
      col_data = cols.get();
    }
    for (int64_t g = 0; g < s.groups; ++g)
      gemm_rows_bias(cout_g, out_plane, cin_g * K, w + g * cout_g * cin_g * K, cin_g * K,
                     col_data + g * cin_g * K * out_plane, out_plane, yn + g * cout_g * out_plane, out_plane,
                     b ? b + g * cout_g : nullptr);
  }
}

template <typename T>
void conv_transpose_forward(const ConvShape& s, const T* x, const T* w, const T* b, T* y) {
  if constexpr (std::is_same<T, float>::value) if (try_small_conv_transpose2d(s, x, w, b, y)) return;
  const int64_t in_plane = volume(s.input), out_plane = volume(s.output), K = volume(s.kernel);
  const int64_t cin_g = s.in_channels / s.groups, cout_g = s.out_channels / s.groups;
  // Per group, the weight [cin_g, cout_g*K] transposed to [cout_g*K, cin_g].
  std::vector<T> wt(static_cast<size_t>(s.in_channels * cout_g * K));
  for (int64_t g = 0; g < s.groups; ++g) {
    const T* wg = w + g * cin_g * cout_g * K;
    T* wtg = wt.data() + g * cin_g * cout_g * K;
    for (int64_t ci = 0; ci < cin_g; ++ci)
      for (int64_t r = 0; r < cout_g * K; ++r) wtg[r * cin_g + ci] = wg[ci * cout_g * K + r];
  }
  std::vector<T> cols(static_cast<size_t>(s.out_channels * K * in_plane));
  for (int64_t n = 0; n < s.batch; ++n) {
    const T* xn = x + n * s.in_channels * in_plane;
    T* yn = y + n * s.out_channels * out_plane;
    for (int64_t g = 0; g < s.groups; ++g)
      gemm(cout_g * K, in_plane, cin_g, wt.data() + g * cin_g * cout_g * K, cin_g, xn + g * cin_g * in_plane,
           in_plane, cols.data() + g * cout_g * K * in_plane, in_plane, false);
    fill_bias(yn, s.out_channels, out_plane, b);
    col2im_add(cols.data(), s.out_channels, s.output, s.input, s, yn);
  }
}

template void conv_forward<float>(const ConvShape&, const float*, const float*, const float*, float*);
template void conv_forward<double>(const ConvShape&, const double*, const double*, const double*, double*);
template void conv_transpose_forward<float>(const ConvShape&, const float*, const float*, const float*, float*);
template void conv_transpose_forward<double>(const ConvShape&, const double*, const double*, const double*,
                                             double*);
template void conv_forward<int64_t>(const ConvShape&, const int64_t*, const int64_t*, const int64_t*, int64_t*);
template void conv_transpose_forward<int64_t>(const ConvShape&, const int64_t*, const int64_t*, const int64_t*,
                                              int64_t*);

}  // namespace pt2web
