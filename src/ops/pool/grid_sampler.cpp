// grid_sampler_2d (F.grid_sample on 4-d inputs): bilinear, nearest and
// bicubic sampling of input[N, C, H, W] at the normalized (x, y) positions of
// grid[N, Hout, Wout, 2], with zeros, border or reflection padding.
//
// The arithmetic follows ATen's vectorized CPU kernel (GridSamplerKernel.cpp),
// which is what torch runs for float32 and float64, rather than the scalar
// fallback: its unnormalize is (g + 1) * (size / 2) - 0.5 without
// align_corners, its reflection folds by trunc(|x| / twice_span), clipping
// sends NaN to 0, and a position whose integer index does not fit is out of
// bounds. float16/bfloat16 sample in float32 and round once.
// grid_sampler_3d lives in grid_sampler_3d.cpp and registers from here.
#include <cmath>
#include <limits>

#include "ops/elementwise.h"
#include "ops/pool/pool.h"
#include "ops/pool/grid_sampler.h"

namespace pt2web {

namespace {

// An index no image has: what the vector kernel's float -> int conversion
// yields (INT_MIN) for NaN and out-of-range positions, kept far from
// overflow when a tap adds 1 or 2.
constexpr int64_t kOutside = std::numeric_limits<int64_t>::min() / 4;

// An integral-valued coordinate as an index, or kOutside.
template <typename T>
int64_t to_index(T v) {
  if (!(std::fabs(v) < T(1e15))) return kOutside;
  return static_cast<int64_t>(v);
}

// min() that returns NaN when either side is NaN (Vectorized::minimum).
template <typename T>
T nan_min(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  return a < b ? a : b;
}

// Grid value -> source coordinate along one spatial axis (ATen's ComputeLocation).
template <typename T>
class AxisLocation {
 public:
  AxisLocation(int64_t size, bool align_corners, Padding padding)
      : align_corners_(align_corners),
        padding_(padding),
        max_val_(static_cast<T>(size - 1)),
        scale_(align_corners ? static_cast<T>(size - 1) / 2 : static_cast<T>(size) / 2),
        low_(align_corners ? T(0) : T(-0.5)),
        twice_span_(align_corners ? static_cast<T>(size - 1) * 2 : static_cast<T>(size) * 2),
        empty_(align_corners ? size <= 1 : size <= 0) {}

  T unnormalize(T g) const { return align_corners_ ? (g + T(1)) * scale_ : (g + T(1)) * scale_ - T(0.5); }

  // Applies the padding mode to an unnormalized coordinate.
  T pad(T x) const {
    if (padding_ == Padding::Border) return clip(x);
    if (padding_ == Padding::Reflection) return clip(reflect(x));
    return x;
  }

  T apply(T g) const { return pad(unnormalize(g)); }

 private:
  // Clamp to [0, size - 1]; NaN becomes 0 (the kernel's operand order does that).
  T clip(T x) const {
    T lo = x > T(0) ? x : T(0);
    return lo < max_val_ ? lo : max_val_;
  }

  T reflect(T x) const {
    if (empty_) return T(0);
    T shifted = std::fabs(x - low_);
    T double_flips = std::trunc(shifted / twice_span_);
    T extra = shifted - double_flips * twice_span_;
    return nan_min(extra, twice_span_ - extra) + low_;
  }

  bool align_corners_;
  Padding padding_;
  T max_val_, scale_, low_, twice_span_;
  bool empty_;
};

// One [C, H, W] input image (strided) and its channel loop bounds.
template <typename T>
struct Image {
  const T* data;
  int64_t channels, height, width;
  int64_t stride_c, stride_h, stride_w;

  bool inside(int64_t y, int64_t x) const { return y >= 0 && y < height && x >= 0 && x < width; }
  // Value at (c, y, x), or 0 outside the image.
  T at(int64_t c, int64_t y, int64_t x) const {
    return inside(y, x) ? data[c * stride_c + y * stride_h + x * stride_w] : T(0);
  }
};

// Output values of every channel at one sampling position; out has stride out_stride_c.
template <typename T>
void sample_bilinear(const Image<T>& img, const AxisLocation<T>& loc_x, const AxisLocation<T>& loc_y, T gx, T gy,
                     T* out, int64_t out_stride_c) {
  const T x = loc_x.apply(gx), y = loc_y.apply(gy);
  const T x_w = std::floor(x), y_n = std::floor(y);
  const T w = x - x_w, e = T(1) - w;
  const T n = y - y_n, s = T(1) - n;
  const T nw = s * e, ne = s * w, sw = n * e, se = n * w;
  const int64_t ix = to_index(x_w), iy = to_index(y_n);
  for (int64_t c = 0; c < img.channels; ++c) {
    out[c * out_stride_c] = img.at(c, iy, ix) * nw + img.at(c, iy, ix + 1) * ne + img.at(c, iy + 1, ix) * sw +
                            img.at(c, iy + 1, ix + 1) * se;
  }
}

// Nearest rounds half to even, as the kernel's vector round does.
template <typename T>
void sample_nearest(const Image<T>& img, const AxisLocation<T>& loc_x, const AxisLocation<T>& loc_y, T gx, T gy,
                    T* out, int64_t out_stride_c) {
  const int64_t ix = to_index(std::nearbyint(loc_x.apply(gx)));
  const int64_t iy = to_index(std::nearbyint(loc_y.apply(gy)));
  for (int64_t c = 0; c < img.channels; ++c) out[c * out_stride_c] = img.at(c, iy, ix);
}

// Cubic convolution weights (A = -0.75) of the taps at -1, 0, 1, 2 from
// floor(x), for t = x - floor(x).
template <typename T>
void cubic_coefficients(T t, T (&coeffs)[4]) {
  const T A = T(-0.75);
  T x = t + T(1);
  coeffs[0] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
  x = t;
  coeffs[1] = ((A + T(2)) * x - (A + T(3))) * x * x + T(1);
  x = T(1) - t;
  coeffs[2] = ((A + T(2)) * x - (A + T(3))) * x * x + T(1);
  x = T(2) - t;
  coeffs[3] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
}

// Bicubic: the 4x4 taps around the unpadded position, each tap mapped
// through the padding mode on its own (border/reflection) or dropped when
// outside (zeros).
template <typename T>
void sample_bicubic(const Image<T>& img, const AxisLocation<T>& loc_x, const AxisLocation<T>& loc_y, T gx, T gy,
                    T* out, int64_t out_stride_c) {
  const T x = loc_x.unnormalize(gx), y = loc_y.unnormalize(gy);
  const T x0 = std::floor(x), y0 = std::floor(y);
  T cx[4], cy[4];
  cubic_coefficients(x - x0, cx);
  cubic_coefficients(y - y0, cy);
  int64_t tap_x[4], tap_y[4];
  for (int k = 0; k < 4; ++k) {
    tap_x[k] = to_index(loc_x.pad(x0 + T(k - 1)));
    tap_y[k] = to_index(loc_y.pad(y0 + T(k - 1)));
  }
  for (int64_t c = 0; c < img.channels; ++c) {
    T rows[4];
    for (int r = 0; r < 4; ++r) {
      const int64_t yy = tap_y[r];
      rows[r] = cx[0] * img.at(c, yy, tap_x[0]) + cx[1] * img.at(c, yy, tap_x[1]) + cx[2] * img.at(c, yy, tap_x[2]) +
                cx[3] * img.at(c, yy, tap_x[3]);
    }
    out[c * out_stride_c] = cy[0] * rows[0] + cy[1] * rows[1] + cy[2] * rows[2] + cy[3] * rows[3];
  }
}

// Samples every batch item and output position with `sample` (one of the
// sample_* functions); input and grid share dtype T (float or double), the
// output is a new contiguous [N, C, Hout, Wout].
template <typename T, typename Sample>
Tensor sample_all_2d(const Tensor& input, const Tensor& grid, Padding padding, bool align_corners, Sample sample) {
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t out_h = grid.size(1), out_w = grid.size(2);
  Tensor out = Tensor::empty(input.dtype(), {N, C, out_h, out_w});
  const AxisLocation<T> loc_x(W, align_corners, padding), loc_y(H, align_corners, padding);
  const Shape& is = input.strides();
  const Shape& gs = grid.strides();
  const T* grid_data = grid.data<T>();
  T* out_data = out.data<T>();
  const int64_t plane = out_h * out_w;
  for (int64_t n = 0; n < N; ++n) {
    const Image<T> img{input.data<T>() + n * is[0], C, H, W, is[1], is[2], is[3]};
    for (int64_t h = 0; h < out_h; ++h) {
      for (int64_t w = 0; w < out_w; ++w) {
        const T* g = grid_data + n * gs[0] + h * gs[1] + w * gs[2];
        sample(img, loc_x, loc_y, g[0], g[gs[3]], out_data + n * C * plane + h * out_w + w, plane);
      }
    }
  }
  return out;
}

template <typename T>
Tensor grid_sample_2d(const Tensor& input, const Tensor& grid, Interpolation mode, Padding padding,
                      bool align_corners) {
  switch (mode) {
    case Interpolation::Bilinear: return sample_all_2d<T>(input, grid, padding, align_corners, sample_bilinear<T>);
    case Interpolation::Nearest: return sample_all_2d<T>(input, grid, padding, align_corners, sample_nearest<T>);
    case Interpolation::Bicubic: break;
  }
  return sample_all_2d<T>(input, grid, padding, align_corners, sample_bicubic<T>);
}

void grid_sampler_2d_op(OpCall& c) {
  run_grid_sampler(c, 2, "grid_sampler_2d", [](auto tag, const Tensor& input, const Tensor& grid, Interpolation mode,
                                               Padding padding, bool align_corners) {
    return grid_sample_2d<typename decltype(tag)::type>(input, grid, mode, padding, align_corners);
  });
}

}  // namespace

// ATen's check_grid_sampler_common and check_grid_sampler_2d/3d, plus the
// mode ranges and dtypes.
void check_grid_sampler(const OpCall& c, const Tensor& input, const Tensor& grid, int64_t spatial_dims,
                        int64_t mode, int64_t padding) {
  const int64_t rank = spatial_dims + 2;
  if (input.dim() != rank || grid.dim() != rank)
    fail(ErrorCode::BadInput, c.where(), "grid_sampler(): expected ", rank,
         "D input and grid with same number of dimensions, but got input with sizes ",
         shape_to_string(input.sizes()), " and grid with sizes ", shape_to_string(grid.sizes()));
  if (input.size(0) != grid.size(0))
    fail(ErrorCode::BadInput, c.where(),
         "grid_sampler(): expected grid and input to have same batch size, but got input with sizes ",
         shape_to_string(input.sizes()), " and grid with sizes ", shape_to_string(grid.sizes()));
  if (grid.size(-1) != spatial_dims)
    fail(ErrorCode::BadInput, c.where(), "grid_sampler(): expected grid to have size ", spatial_dims,
         " in last dimension, but got grid with sizes ", shape_to_string(grid.sizes()));
  for (int64_t d = 2; d < rank; ++d) {
    if (input.size(d) <= 0)
      fail(ErrorCode::BadInput, c.where(),
           "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes ",
           shape_to_string(input.sizes()), " with dimension ", d, " being empty");
  }
  if (mode < 0 || mode > 2)
    fail(ErrorCode::BadInput, c.where(), "grid_sampler(): interpolation_mode must be 0 (bilinear), 1 (nearest) or ",
         "2 (bicubic), got ", mode);
  if (spatial_dims == 3 && mode == 2)
    fail(ErrorCode::BadInput, c.where(), "grid_sampler(): bicubic interpolation only supports 4D input");
  if (padding < 0 || padding > 2)
    fail(ErrorCode::BadInput, c.where(), "grid_sampler(): padding_mode must be 0 (zeros), 1 (border) or ",
         "2 (reflection), got ", padding);
  if (!is_floating(input.dtype()))
    elementwise::fail_not_implemented_for(c, "grid_sampler_" + std::to_string(spatial_dims) + "d_cpu", input.dtype());
  if (grid.dtype() != input.dtype())
    fail(ErrorCode::BadInput, c.where(), "grid_sampler(): expected grid of the input's dtype ",
         dtype_name(input.dtype()), ", but got ", dtype_name(grid.dtype()));
}

void register_grid_sampler_ops(OpTable& t) {
  t.add("aten::grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
        "bool align_corners) -> Tensor",
        grid_sampler_2d_op);
}

}  // namespace pt2web
