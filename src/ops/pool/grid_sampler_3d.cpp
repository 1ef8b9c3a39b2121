// grid_sampler_3d (F.grid_sample on 5-d inputs): trilinear and nearest
// sampling of input[N, C, D, H, W] at the normalized (x, y, z) positions of
// grid[N, Dout, Hout, Wout, 3], with zeros, border or reflection padding.
//
// ATen runs 3-d sampling through its scalar CPU loop (GridSampler.cpp), whose
// coordinate arithmetic differs from the 2-d vector kernel's: unnormalize is
// ((g + 1) * size - 1) / 2 without align_corners, reflection uses fmod and
// counts flips with floor, and clipping keeps NaN out of the image by sending
// it to size - 1. In zeros mode a NaN or huge position reads nothing (0).
// float16/bfloat16 sample in float32 and round once.
#include <cmath>
#include <limits>

#include "ops/pool/pool.h"
#include "ops/pool/grid_sampler.h"

namespace pt2web {

namespace {

// An image index for a floored or rounded coordinate, or one outside every
// image when the value is NaN or too large for an index.
template <typename T>
int64_t index_of(T v) {
  if (!(std::fabs(v) < T(1e15))) return std::numeric_limits<int64_t>::min() / 4;
  return static_cast<int64_t>(v);
}

// ATen's clip_coordinates: min(size - 1, max(x, 0)); NaN ends at size - 1.
template <typename T>
T clip(T x, int64_t size) {
  const T lo = (x < T(0)) ? T(0) : x;
  const T hi = static_cast<T>(size - 1);
  return (lo < hi) ? lo : hi;
}

// Whether floor(q) as an int is odd; out-of-int-range and NaN quotients count
// as even (x86's conversion gives INT_MIN for them).
template <typename T>
bool odd_flips(T q) {
  const T f = std::floor(q);
  if (!(std::fabs(f) < T(2147483647.0))) return false;
  return static_cast<int64_t>(f) % 2 != 0;
}

// ATen's reflect_coordinates between twice_low / 2 and twice_high / 2.
template <typename T>
T reflect(T x, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return T(0);
  const T lo = static_cast<T>(twice_low) / 2;
  const T span = static_cast<T>(twice_high - twice_low) / 2;
  const T d = std::fabs(x - lo);
  const T extra = std::fmod(d, span);
  return odd_flips(d / span) ? span - extra + lo : extra + lo;
}

// ATen's grid_sampler_compute_source_index.
template <typename T>
T source_index(T g, int64_t size, Padding padding, bool align_corners) {
  T x = align_corners ? ((g + T(1)) / T(2)) * static_cast<T>(size - 1)
                      : ((g + T(1)) * static_cast<T>(size) - T(1)) / T(2);
  if (padding == Padding::Border) return clip(x, size);
  if (padding == Padding::Reflection) {
    x = align_corners ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1);
    return clip(x, size);
  }
  return x;
}

// One [C, D, H, W] input volume (strided).
template <typename T>
struct Volume {
  const T* data;
  int64_t channels, depth, height, width;
  int64_t sc, sd, sh, sw;

  bool inside(int64_t z, int64_t y, int64_t x) const {
    return z >= 0 && z < depth && y >= 0 && y < height && x >= 0 && x < width;
  }
  T at(int64_t c, int64_t z, int64_t y, int64_t x) const { return data[c * sc + z * sd + y * sh + x * sw]; }
};

// Trilinear: the eight corners in ATen's order (top/bottom = z, north/south
// = y, west/east = x), each added only when inside.
template <typename T>
void sample_trilinear(const Volume<T>& v, T ix, T iy, T iz, T* out, int64_t out_stride_c) {
  const int64_t x0 = index_of(std::floor(ix)), y0 = index_of(std::floor(iy)), z0 = index_of(std::floor(iz));
  const int64_t x1 = x0 + 1, y1 = y0 + 1, z1 = z0 + 1;
  const T wx0 = static_cast<T>(x1) - ix, wx1 = ix - static_cast<T>(x0);
  const T wy0 = static_cast<T>(y1) - iy, wy1 = iy - static_cast<T>(y0);
  const T wz0 = static_cast<T>(z1) - iz, wz1 = iz - static_cast<T>(z0);
  struct Corner {
    int64_t z, y, x;
    T weight;
  };
  const Corner corners[8] = {
      {z0, y0, x0, wx0 * wy0 * wz0}, {z0, y0, x1, wx1 * wy0 * wz0}, {z0, y1, x0, wx0 * wy1 * wz0},
      {z0, y1, x1, wx1 * wy1 * wz0}, {z1, y0, x0, wx0 * wy0 * wz1}, {z1, y0, x1, wx1 * wy0 * wz1},
      {z1, y1, x0, wx0 * wy1 * wz1}, {z1, y1, x1, wx1 * wy1 * wz1},
  };
  for (int64_t c = 0; c < v.channels; ++c) {
    T acc = T(0);
    for (const Corner& k : corners)
      if (v.inside(k.z, k.y, k.x)) acc += v.at(c, k.z, k.y, k.x) * k.weight;
    out[c * out_stride_c] = acc;
  }
}

template <typename T>
void sample_nearest(const Volume<T>& v, T ix, T iy, T iz, T* out, int64_t out_stride_c) {
  const int64_t x = index_of(std::nearbyint(ix)), y = index_of(std::nearbyint(iy)), z = index_of(std::nearbyint(iz));
  const bool inside = v.inside(z, y, x);
  for (int64_t c = 0; c < v.channels; ++c) out[c * out_stride_c] = inside ? v.at(c, z, y, x) : T(0);
}

// Every batch item and output position through `sample`; T is float or double.
template <typename T, typename Sample>
Tensor sample_all_3d(const Tensor& input, const Tensor& grid, Padding padding, bool align_corners, Sample sample) {
  const int64_t N = input.size(0), C = input.size(1);
  const int64_t D = input.size(2), H = input.size(3), W = input.size(4);
  const int64_t out_d = grid.size(1), out_h = grid.size(2), out_w = grid.size(3);
  Tensor out = Tensor::empty(input.dtype(), {N, C, out_d, out_h, out_w});
  const Shape& is = input.strides();
  const Shape& gs = grid.strides();
  const int64_t volume = out_d * out_h * out_w;
  T* out_data = out.data<T>();
  for (int64_t n = 0; n < N; ++n) {
    const Volume<T> v{input.data<T>() + n * is[0], C, D, H, W, is[1], is[2], is[3], is[4]};
    int64_t position = 0;
    for (int64_t d = 0; d < out_d; ++d) {
      for (int64_t h = 0; h < out_h; ++h) {
        for (int64_t w = 0; w < out_w; ++w, ++position) {
          const T* g = grid.data<T>() + n * gs[0] + d * gs[1] + h * gs[2] + w * gs[3];
          const T ix = source_index(g[0], W, padding, align_corners);
          const T iy = source_index(g[gs[4]], H, padding, align_corners);
          const T iz = source_index(g[2 * gs[4]], D, padding, align_corners);
          sample(v, ix, iy, iz, out_data + n * C * volume + position, volume);
        }
      }
    }
  }
  return out;
}

template <typename T>
Tensor grid_sample_3d(const Tensor& input, const Tensor& grid, Interpolation mode, Padding padding,
                      bool align_corners) {
  if (mode == Interpolation::Nearest)
    return sample_all_3d<T>(input, grid, padding, align_corners, sample_nearest<T>);
  return sample_all_3d<T>(input, grid, padding, align_corners, sample_trilinear<T>);
}

void grid_sampler_3d_op(OpCall& c) {
  run_grid_sampler(c, 3, "grid_sampler_3d", [](auto tag, const Tensor& input, const Tensor& grid, Interpolation mode,
                                               Padding padding, bool align_corners) {
    return grid_sample_3d<typename decltype(tag)::type>(input, grid, mode, padding, align_corners);
  });
}

}  // namespace

void register_grid_sampler_3d_ops(OpTable& t) {
  t.add("aten::grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
        "bool align_corners) -> Tensor",
        grid_sampler_3d_op);
}

}  // namespace pt2web
