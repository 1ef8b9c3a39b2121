// Resampling: upsample_nearest{1,2,3}d, _upsample_nearest_exact{1,2,3}d,
// upsample_linear1d / upsample_bilinear2d / upsample_trilinear3d,
// upsample_bicubic2d (each with its .vec overload), pixel_shuffle and
// pixel_unshuffle.
//
// Source indices and weights follow ATen's UpSample.h to the float: the
// nearest ops always compute in float, the linear ones in the input's opmath
// type, and the scale is 1/scale_factor when a factor was given, otherwise
// input_size/output_size. Like pooling, 1-d and 2-d inputs run the 3-d loops
// with leading size-1 dims.
#include <algorithm>
#include <cmath>
#include <optional>

#include "ops/pool/pool.h"
#include "ops/op_utils.h"
#include "ops/elementwise.h"
#include "ops/pool/pooling.h"
#include "ops/views.h"

namespace pt2web {

namespace {

using Scales = std::array<std::optional<double>, 3>;

// ATen's compute_scales_value: 1/scale when a positive scale was given.
template <typename Op>
Op scale_value(std::optional<double> scale, int64_t in, int64_t out) {
  return scale && *scale > 0.0 ? static_cast<Op>(1.0 / *scale) : static_cast<Op>(in) / static_cast<Op>(out);
}

// ATen's nearest_idx / nearest_exact_idx for every output index of one dim.
std::vector<int64_t> nearest_sources(int64_t in, int64_t out, std::optional<double> scale, bool exact) {
  std::vector<int64_t> src(out);
  const float s = scale_value<float>(scale, in, out);
  for (int64_t o = 0; o < out; ++o) {
    if (!exact && out == in) {
      src[o] = o;
    } else if (!exact && out == 2 * in) {
      src[o] = o >> 1;
    } else {
      const float pos = exact ? static_cast<float>((static_cast<double>(o) + 0.5) * s)
                              : static_cast<float>(o) * s;
      src[o] = std::min(static_cast<int64_t>(std::floor(pos)), in - 1);
    }
  }
  return src;
}

// One output position of linear interpolation: x[i0]*l0 + x[i1]*l1.
template <typename Op>
struct Tap {
  int64_t i0, i1;
  Op l0, l1;
};

// ATen's area_pixel_compute_scale + compute_source_index_and_lambda.
template <typename Op>
std::vector<Tap<Op>> linear_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  Op ratio;
  if (align_corners) ratio = out > 1 ? static_cast<Op>(in - 1) / static_cast<Op>(out - 1) : Op(0);
  else ratio = scale_value<Op>(scale, in, out);
  std::vector<Tap<Op>> taps(out);
  for (int64_t o = 0; o < out; ++o) {
    Tap<Op>& t = taps[o];
    if (out == in) {
      t = {o, o, Op(1), Op(0)};
      continue;
    }
    Op real = align_corners ? ratio * static_cast<Op>(o) : ratio * (static_cast<Op>(o) + Op(0.5)) - Op(0.5);
    if (!align_corners && real < Op(0)) real = Op(0);
    t.i0 = std::min(static_cast<int64_t>(std::floor(static_cast<float>(real))), in - 1);
    t.l1 = std::min(std::max(real - static_cast<Op>(t.i0), Op(0)), Op(1));
    t.i1 = t.i0 + (t.i0 < in - 1 ? 1 : 0);
    t.l0 = Op(1) - t.l1;
  }
  return taps;
}

// Bicubic taps along one dim: four clamped source indices and ATen's cubic
// convolution weights (A = -0.75), rounded to the element type as ATen stores them.
template <typename T>
struct CubicTap {
  int64_t index[4];
  opmath_t<T> weight[4];
};

template <typename T>
std::vector<CubicTap<T>> cubic_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  using Op = opmath_t<T>;
  const Op A = Op(-0.75);
  auto near = [A](Op x) { return ((A + Op(2)) * x - (A + Op(3))) * x * x + Op(1); };
  auto far = [A](Op x) { return ((A * x - Op(5) * A) * x + Op(8) * A) * x - Op(4) * A; };
  Op ratio;
  if (align_corners) ratio = out > 1 ? static_cast<Op>(in - 1) / static_cast<Op>(out - 1) : Op(0);
  else ratio = scale_value<Op>(scale, in, out);
  std::vector<CubicTap<T>> taps(out);
  for (int64_t o = 0; o < out; ++o) {
    // Unlike linear, a negative source position is kept (cubic=true in ATen).
    const Op real = align_corners ? ratio * static_cast<Op>(o) : ratio * (static_cast<Op>(o) + Op(0.5)) - Op(0.5);
    const int64_t i0 = std::min(static_cast<int64_t>(std::floor(static_cast<float>(real))), in - 1);
    const Op t = std::min(std::max(real - static_cast<Op>(i0), Op(0)), Op(1));
    const Op rest = Op(1) - t;
    const Op w[4] = {far(t + Op(1)), near(t), near(rest), far(rest + Op(1))};
    for (int j = 0; j < 4; ++j) {
      taps[o].index[j] = std::max<int64_t>(std::min<int64_t>(i0 - 1 + j, in - 1), 0);
      taps[o].weight[j] = static_cast<Op>(static_cast<T>(w[j]));
    }
  }
  return taps;
}

// 2-d bicubic: each output is sum_i (sum_j x[h_i, w_j] * ww_j) * wh_i, summed
// in ATen's order.
template <typename T>
void cubic_kernel(const T* in, T* out, int64_t planes, int64_t in_h, int64_t in_w,
                  const std::vector<CubicTap<T>>& th, const std::vector<CubicTap<T>>& tw) {
  using Op = opmath_t<T>;
  int64_t o = 0;
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = in + p * in_h * in_w;
    for (const CubicTap<T>& h : th)
      for (const CubicTap<T>& w : tw) {
        Op acc = Op(0);
        for (int i = 0; i < 4; ++i) {
          const T* row = plane + h.index[i] * in_w;
          Op inner = static_cast<Op>(row[w.index[0]]) * w.weight[0];
          for (int j = 1; j < 4; ++j) inner += static_cast<Op>(row[w.index[j]]) * w.weight[j];
          acc = i == 0 ? inner * h.weight[0] : acc + inner * h.weight[i];
        }
        out[o++] = static_cast<T>(acc);
      }
  }
}

template <typename T>
void nearest_kernel(const T* in, T* out, int64_t planes, const Dims3& isz,
                    const std::array<std::vector<int64_t>, 3>& src) {
  const int64_t in_plane = isz[0] * isz[1] * isz[2];
  int64_t o = 0;
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = in + p * in_plane;
    for (int64_t id : src[0])
      for (int64_t ih : src[1]) {
        const T* row = plane + (id * isz[1] + ih) * isz[2];
        for (int64_t iw : src[2]) out[o++] = row[iw];
      }
  }
}

// Sums the 2^k corner values times the products of their weights, corners in
// ATen's order (last dim fastest); size-1 padding dims contribute one corner.
template <typename T>
void linear_kernel(const T* in, T* out, int64_t planes, const Dims3& isz,
                   const std::array<std::vector<Tap<opmath_t<T>>>, 3>& taps, const std::array<bool, 3>& real) {
  using Op = opmath_t<T>;
  const int64_t in_plane = isz[0] * isz[1] * isz[2];
  int64_t o = 0;
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = in + p * in_plane;
    for (const Tap<Op>& td : taps[0])
      for (const Tap<Op>& th : taps[1])
        for (const Tap<Op>& tw : taps[2]) {
          const int64_t id[2] = {td.i0, td.i1}, ih[2] = {th.i0, th.i1}, iw[2] = {tw.i0, tw.i1};
          const Op ld[2] = {td.l0, td.l1}, lh[2] = {th.l0, th.l1}, lw[2] = {tw.l0, tw.l1};
          bool first = true;
          Op acc = Op(0);
          for (int a = 0; a < (real[0] ? 2 : 1); ++a)
            for (int b = 0; b < (real[1] ? 2 : 1); ++b)
              for (int e = 0; e < (real[2] ? 2 : 1); ++e) {
                const Op w = (real[0] ? ld[a] : Op(1)) * (real[1] ? lh[b] : Op(1)) * (real[2] ? lw[e] : Op(1));
                const Op term = static_cast<Op>(plane[(id[a] * isz[1] + ih[b]) * isz[2] + iw[e]]) * w;
                acc = first ? term : acc + term;
                first = false;
              }
          out[o++] = static_cast<T>(acc);
        }
  }
}

// ATen's upsample shape checks: input of rank+2 dims with non-empty
// non-batch dims, positive output sizes.
void check_upsample(const OpCall& c, const Tensor& input, int64_t rank, const std::vector<int64_t>& out_size) {
  if (static_cast<int64_t>(out_size.size()) != rank)
    fail(ErrorCode::BadInput, c.where(), "It is expected output_size equals to ", rank, ", but got size ",
         out_size.size());
  if (input.dim() != rank + 2)
    fail(ErrorCode::BadInput, c.where(), "It is expected input_size equals to ", rank + 2, ", but got size ",
         input.dim());
  bool ok = true;
  for (int64_t d = 1; d < input.dim(); ++d) ok = ok && input.size(d) > 0;
  for (int64_t o : out_size) ok = ok && o > 0;
  if (!ok)
    fail(ErrorCode::BadInput, c.where(), "Input and output sizes should be greater than 0, but got input ",
         shape_to_string(input.sizes()), " output ", shape_to_string(out_size));
}

enum class Interp { Nearest, NearestExact, Linear, Cubic };

Tensor upsample(const OpCall& c, const Tensor& input, int64_t rank, const std::vector<int64_t>& out_size,
                const std::vector<std::optional<double>>& scales, Interp mode, bool align_corners) {
  check_upsample(c, input, rank, out_size);
  const DType dtype = input.dtype();
  const bool floating = dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Float16 ||
                        dtype == DType::BFloat16;
  const bool nearest = mode == Interp::Nearest || mode == Interp::NearestExact;
  if (dtype == DType::UInt8 && !nearest)
    fail(ErrorCode::Unsupported, c.where(), "uint8 inputs are only supported by the nearest modes");
  if (!floating && !(nearest && dtype == DType::UInt8)) elementwise::fail_not_implemented_for(c, dtype);
  Tensor x = input.contiguous();
  Tensor out = Tensor::empty(dtype, with_spatial(input, rank, out_size));
  const int64_t planes = plane_count(input, rank);
  const Dims3 isz = to_dims3(std::vector<int64_t>(input.sizes().end() - rank, input.sizes().end()), 1);
  const Dims3 osz = to_dims3(out_size, 1);
  Scales sc;
  for (int64_t i = 0; i < rank; ++i) sc[3 - rank + i] = scales[i];
  if (nearest) {
    std::array<std::vector<int64_t>, 3> src;
    for (int i = 0; i < 3; ++i) src[i] = nearest_sources(isz[i], osz[i], sc[i], mode == Interp::NearestExact);
    visit_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      nearest_kernel<T>(x.data<T>(), out.data<T>(), planes, isz, src);
    });
    return out;
  }
  if (mode == Interp::Cubic) {
    visit_floating_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      cubic_kernel<T>(x.data<T>(), out.data<T>(), planes, isz[1], isz[2],
                      cubic_taps<T>(isz[1], osz[1], align_corners, sc[1]),
                      cubic_taps<T>(isz[2], osz[2], align_corners, sc[2]));
    });
    return out;
  }
  visit_floating_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::array<std::vector<Tap<opmath_t<T>>>, 3> taps;
    std::array<bool, 3> real{};
    for (int i = 0; i < 3; ++i) {
      taps[i] = linear_taps<opmath_t<T>>(isz[i], osz[i], align_corners, sc[i]);
      real[i] = i >= 3 - rank;
    }
    linear_kernel<T>(x.data<T>(), out.data<T>(), planes, isz, taps, real);
  });
  return out;
}

// The .vec overloads: exactly one of output_size and scale_factors; a factor
// gives output size floor(input_size * factor) and is passed on as the scale.
void vec_args(const OpCall& c, const Tensor& input, int64_t rank, size_t size_arg, size_t scale_arg,
              std::vector<int64_t>& out_size, std::vector<std::optional<double>>& scales) {
  std::optional<std::vector<int64_t>> size = c.optional_int_list(size_arg);
  const bool has_scales = !c.arg(scale_arg).is_none();
  if (size.has_value() == has_scales)
    fail(ErrorCode::BadInput, c.where(), "Must specify exactly one of output_size and scale_factors");
  scales.assign(rank, std::nullopt);
  if (size) {
    out_size = *size;
    return;
  }
  std::vector<double> factors = c.double_list(scale_arg);
  if (static_cast<int64_t>(factors.size()) != rank || input.dim() != rank + 2)
    fail(ErrorCode::BadInput, c.where(), "expected ", rank, " scale factors for an input of ", rank + 2,
         " dims, got ", factors.size(), " for input of shape ", shape_to_string(input.sizes()));
  out_size.clear();
  for (int64_t i = 0; i < rank; ++i) {
    const double size = static_cast<double>(input.size(2 + i)) * factors[i];
    if (!(size >= 0 && size < 9.2e18))
      fail(ErrorCode::BadInput, c.where(), "scale factor ", factors[i], " gives an output size of ", size,
           " for an input of shape ", shape_to_string(input.sizes()));
    out_size.push_back(static_cast<int64_t>(size));
    scales[i] = factors[i];
  }
}

// upsample_<mode>Nd.vec(input, output_size?, [align_corners,] scale_factors?)
template <int Rank, Interp Mode>
void upsample_vec_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const bool has_align = Mode == Interp::Linear || Mode == Interp::Cubic;
  std::vector<int64_t> out_size;
  std::vector<std::optional<double>> scales;
  vec_args(c, input, Rank, 1, has_align ? 3 : 2, out_size, scales);
  c.push(upsample(c, input, Rank, out_size, scales, Mode, has_align && c.bool_arg(2)));
}

// upsample_<mode>Nd(self, output_size, [align_corners,] scales_...=None)
template <int Rank, Interp Mode>
void upsample_op(OpCall& c) {
  const bool has_align = Mode == Interp::Linear || Mode == Interp::Cubic;
  const size_t first_scale = has_align ? 3 : 2;
  std::vector<std::optional<double>> scales;
  for (size_t i = 0; i < static_cast<size_t>(Rank); ++i) scales.push_back(c.optional_double(first_scale + i));
  c.push(upsample(c, c.tensor(0), Rank, c.int_list(1), scales, Mode, has_align && c.bool_arg(2)));
}

// Rearranges the last three dims of `self`: split them into `split` (five
// dims), permute those by `perm`, and copy into `merged` (three dims); any
// leading dims are carried along.
Tensor rearrange_tail(const Tensor& self, const Shape& split, const std::vector<int64_t>& perm, const Shape& merged) {
  Shape batch(self.sizes().begin(), self.sizes().end() - 3);
  const int64_t b = static_cast<int64_t>(batch.size());
  Shape split_shape = batch, out_shape = batch;
  split_shape.insert(split_shape.end(), split.begin(), split.end());
  out_shape.insert(out_shape.end(), merged.begin(), merged.end());
  std::vector<int64_t> full_perm;
  for (int64_t i = 0; i < b; ++i) full_perm.push_back(i);
  for (int64_t p : perm) full_perm.push_back(b + p);
  return reshape(permute_view(reshape(self, split_shape), full_perm).contiguous(), out_shape);
}

void check_shuffle_input(const OpCall& c, const Tensor& self, int64_t factor, const char* factor_name) {
  const std::string op = c.schema().name.substr(6);
  if (self.dim() < 3)
    fail(ErrorCode::BadInput, c.where(), op, " expects input to have at least 3 dimensions, but got input with ",
         self.dim(), " dimension(s)");
  if (factor <= 0) fail(ErrorCode::BadInput, c.where(), op, " expects a positive ", factor_name, ", but got ", factor);
  // Every size the shuffle computes (factor^2 times a size) must fit int64.
  int64_t square = 0, biggest = 0;
  for (int64_t s : self.sizes()) biggest = std::max(biggest, s);
  if (__builtin_mul_overflow(factor, factor, &square) || __builtin_mul_overflow(square, std::max<int64_t>(biggest, 1), &square))
    fail(ErrorCode::BadInput, c.where(), op, ": ", factor_name, " ", factor, " makes sizes past 2^63 for input ",
         shape_to_string(self.sizes()));
}

// pixel_shuffle: [*, C*r*r, H, W] -> [*, C, H*r, W*r] with
// out[c, h*r+i, w*r+j] = in[c*r*r + i*r + j, h, w].
void pixel_shuffle_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t r = c.int_arg(1);
  check_shuffle_input(c, self, r, "upscale_factor");
  const int64_t ch = self.size(-3), h = self.size(-2), w = self.size(-1);
  if (ch % (r * r) != 0)
    fail(ErrorCode::BadInput, c.where(), "pixel_shuffle expects its input's 'channel' dimension to be divisible by "
         "the square of upscale_factor, but input.size(-3)=", ch, " is not divisible by ", r * r);
  c.push(rearrange_tail(self, {ch / (r * r), r, r, h, w}, {0, 3, 1, 4, 2}, {ch / (r * r), h * r, w * r}));
}

// pixel_unshuffle: the inverse, [*, C, H*r, W*r] -> [*, C*r*r, H, W].
void pixel_unshuffle_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t r = c.int_arg(1);
  check_shuffle_input(c, self, r, "downscale_factor");
  const int64_t ch = self.size(-3), h = self.size(-2), w = self.size(-1);
  if (h % r != 0)
    fail(ErrorCode::BadInput, c.where(), "pixel_unshuffle expects height to be divisible by downscale_factor, but "
         "input.size(-2)=", h, " is not divisible by ", r);
  if (w % r != 0)
    fail(ErrorCode::BadInput, c.where(), "pixel_unshuffle expects width to be divisible by downscale_factor, but "
         "input.size(-1)=", w, " is not divisible by ", r);
  c.push(rearrange_tail(self, {ch, h / r, r, w / r, r}, {0, 2, 4, 1, 3}, {ch * r * r, h / r, w / r}));
}

}  // namespace

void register_resample_ops(OpTable& t) {
  t.add("aten::upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
        upsample_vec_op<1, Interp::Nearest>);
  t.add("aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
        upsample_vec_op<2, Interp::Nearest>);
  t.add("aten::upsample_nearest3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
        upsample_vec_op<3, Interp::Nearest>);
  t.add("aten::_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
        upsample_vec_op<1, Interp::NearestExact>);
  t.add("aten::_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
        upsample_vec_op<2, Interp::NearestExact>);
  t.add("aten::_upsample_nearest_exact3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
        upsample_vec_op<3, Interp::NearestExact>);
  t.add("aten::upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
        "float[]? scale_factors) -> Tensor",
        upsample_vec_op<1, Interp::Linear>);
  t.add("aten::upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
        "float[]? scale_factors) -> Tensor",
        upsample_vec_op<2, Interp::Linear>);
  t.add("aten::upsample_trilinear3d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
        "float[]? scale_factors) -> Tensor",
        upsample_vec_op<3, Interp::Linear>);
  t.add("aten::upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor",
        upsample_op<1, Interp::Nearest>);
  t.add("aten::upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, "
        "float? scales_w=None) -> Tensor",
        upsample_op<2, Interp::Nearest>);
  t.add("aten::upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, "
        "float? scales_h=None, float? scales_w=None) -> Tensor",
        upsample_op<3, Interp::Nearest>);
  t.add("aten::_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor",
        upsample_op<1, Interp::NearestExact>);
  t.add("aten::_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, "
        "float? scales_w=None) -> Tensor",
        upsample_op<2, Interp::NearestExact>);
  t.add("aten::_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, "
        "float? scales_h=None, float? scales_w=None) -> Tensor",
        upsample_op<3, Interp::NearestExact>);
  t.add("aten::upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) "
        "-> Tensor",
        upsample_op<1, Interp::Linear>);
  t.add("aten::upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, "
        "float? scales_h=None, float? scales_w=None) -> Tensor",
        upsample_op<2, Interp::Linear>);
  t.add("aten::upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, "
        "float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor",
        upsample_op<3, Interp::Linear>);
  t.add("aten::upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
        "float[]? scale_factors) -> Tensor",
        upsample_vec_op<2, Interp::Cubic>);
  t.add("aten::upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, "
        "float? scales_h=None, float? scales_w=None) -> Tensor",
        upsample_op<2, Interp::Cubic>);
  t.add("aten::pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", pixel_shuffle_op);
  t.add("aten::pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", pixel_unshuffle_op);
}

}  // namespace pt2web
