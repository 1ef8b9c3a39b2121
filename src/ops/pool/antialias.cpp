// _upsample_bilinear2d_aa (and its .vec overload): bilinear resampling with
// PIL-style antialiasing, as ATen's separable CPU kernel computes it. Each
// output position of a dim averages the inputs within `support` of its
// center with triangle weights (widened by the scale when downsampling),
// normalized to sum 1. Width is resampled first, then height, each pass
// rounding to the element type; a dim whose size does not change is
// skipped. Weights and sums use the element type (float32 / float64, the
// types ATen's CPU kernel accepts), with ATen's mixed float/double
// expressions kept.
//
// Errors: BadInput for wrong ranks, empty dims, non-positive output sizes,
// both or neither of output_size and scale_factors, and for dtypes torch's
// CPU kernel lacks; Unsupported for uint8 (torch has a fixed-point kernel
// for it, with its own rounding, which pt2web does not reproduce).
#include <algorithm>
#include <cmath>
#include <optional>

#include "ops/op_utils.h"
#include "ops/pool/pool.h"
#include "util/error.h"

namespace pt2web {

namespace {

// The taps of one output position: inputs [start, start + weights.size()).
template <typename T>
struct AaTaps {
  int64_t start = 0;
  std::vector<T> weights;
};

// ATen's area_pixel_compute_scale in type T.
template <typename T>
T pixel_scale(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners) return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  if (scale && *scale > 0) return static_cast<T>(1.0 / *scale);
  return static_cast<T>(in) / static_cast<T>(out);
}

// ATen's _compute_indices_min_size_weights_aa for every output position.
template <typename T>
std::vector<AaTaps<T>> aa_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> scale_opt) {
  const T scale = pixel_scale<T>(in, out, align_corners, scale_opt);
  constexpr int kInterpSize = 2;  // linear
  const T support = scale >= 1.0 ? static_cast<T>((kInterpSize * 0.5) * scale) : static_cast<T>(kInterpSize * 0.5);
  const int64_t max_size = static_cast<int64_t>(std::ceil(support)) * 2 + 1;
  const T invscale = scale >= 1.0 ? static_cast<T>(1.0 / scale) : T(1);
  std::vector<AaTaps<T>> taps(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) {
    const T center = static_cast<T>(scale * (static_cast<double>(i) + 0.5));
    const int64_t lo = std::max(static_cast<int64_t>(static_cast<T>(center - support) + 0.5), int64_t{0});
    int64_t size = std::min(static_cast<int64_t>(static_cast<T>(center + support) + 0.5), in) - lo;
    size = std::clamp(size, int64_t{0}, max_size);
    AaTaps<T>& tap = taps[i];
    tap.start = lo;
    T total = T(0);
    for (int64_t j = 0; j < size; ++j) {
      const T offset = static_cast<T>(j + lo) - center;
      const T x = static_cast<T>(std::abs(static_cast<T>((static_cast<double>(offset) + 0.5) * invscale)));
      const T w = x < 1.0 ? static_cast<T>(1.0 - x) : T(0);
      tap.weights.push_back(w);
      total += w;
    }
    if (total != T(0))
      for (T& w : tap.weights) w /= total;
  }
  return taps;
}

// Resamples dim `d` (of rank-4 contiguous x) with `taps`, into a new tensor.
template <typename T>
Tensor resample_dim(const Tensor& x, int64_t d, const std::vector<AaTaps<T>>& taps) {
  Shape shape = x.sizes();
  const int64_t in = shape[d];
  shape[d] = static_cast<int64_t>(taps.size());
  Tensor out = Tensor::empty(x.dtype(), shape);
  const int64_t inner = shape_numel(Shape(shape.begin() + d + 1, shape.end()));
  const int64_t outer = shape_numel(Shape(shape.begin(), shape.begin() + d));
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  const int64_t out_n = shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < out_n; ++i) {
      const AaTaps<T>& tap = taps[i];
      for (int64_t k = 0; k < inner; ++k) {
        const T* base = src + (o * in + tap.start) * inner + k;
        T acc = tap.weights.empty() ? T(0) : base[0] * tap.weights[0];
        for (size_t j = 1; j < tap.weights.size(); ++j) acc += base[static_cast<int64_t>(j) * inner] * tap.weights[j];
        dst[(o * out_n + i) * inner + k] = acc;
      }
    }
  return out;
}

Tensor upsample_aa(const OpCall& c, const Tensor& input, const std::vector<int64_t>& out_size, bool align_corners,
                   std::optional<double> scale_h, std::optional<double> scale_w) {
  if (out_size.size() != 2)
    fail(ErrorCode::BadInput, c.where(), "It is expected output_size equals to 2, but got size ", out_size.size());
  if (input.dim() != 4)
    fail(ErrorCode::BadInput, c.where(), "It is expected input_size equals to 4, but got size ", input.dim());
  bool ok = out_size[0] > 0 && out_size[1] > 0;
  for (int64_t d = 1; d < 4; ++d) ok = ok && input.size(d) > 0;
  if (!ok)
    fail(ErrorCode::BadInput, c.where(), "Input and output sizes should be greater than 0, but got input ",
         shape_to_string(input.sizes()), " output ", shape_to_string(out_size));
  if (input.dtype() == DType::UInt8)
    fail(ErrorCode::Unsupported, c.where(), "uint8 inputs (torch's fixed-point antialias kernel) are not supported");
  if (input.dtype() != DType::Float32 && input.dtype() != DType::Float64)
    fail(ErrorCode::BadInput, c.where(), "\"compute_index_ranges_weights\" not implemented for '",
         dtype_name(input.dtype()), "'");
  Tensor x = input.contiguous();
  if (input.numel() == 0) {
    Shape shape = {input.size(0), input.size(1), out_size[0], out_size[1]};
    return Tensor::empty(input.dtype(), shape);
  }
  visit_floating_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
      if (x.size(3) != out_size[1]) x = resample_dim<T>(x, 3, aa_taps<T>(x.size(3), out_size[1], align_corners, scale_w));
      if (x.size(2) != out_size[0]) x = resample_dim<T>(x, 2, aa_taps<T>(x.size(2), out_size[0], align_corners, scale_h));
    }
  });
  return x.storage() == input.storage() ? x.clone() : x;
}

// _upsample_bilinear2d_aa(self, output_size, align_corners, scales_h, scales_w)
void upsample_aa_op(OpCall& c) {
  c.push(upsample_aa(c, c.tensor(0), c.int_list(1), c.bool_arg(2), c.optional_double(3), c.optional_double(4)));
}

// .vec(input, output_size?, align_corners, scale_factors?): a factor gives
// the size floor(in * factor) and is passed on as the scale.
void upsample_aa_vec_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const std::optional<std::vector<int64_t>> size = c.optional_int_list(1);
  const bool has_factors = !c.arg(3).is_none();
  if (size.has_value() == has_factors)
    fail(ErrorCode::BadInput, c.where(), "Must specify exactly one of output_size and scale_factors");
  if (size) {
    c.push(upsample_aa(c, input, *size, c.bool_arg(2), std::nullopt, std::nullopt));
    return;
  }
  const std::vector<double> f = c.double_list(3);
  if (f.size() != 2 || input.dim() != 4)
    fail(ErrorCode::BadInput, c.where(), "expected 2 scale factors for a 4-d input, got ", f.size(),
         " for input of shape ", shape_to_string(input.sizes()));
  const std::vector<int64_t> out = {static_cast<int64_t>(static_cast<double>(input.size(2)) * f[0]),
                                    static_cast<int64_t>(static_cast<double>(input.size(3)) * f[1])};
  c.push(upsample_aa(c, input, out, c.bool_arg(2), f[0], f[1]));
}

}  // namespace

void register_antialias_ops(OpTable& t) {
  t.add("aten::_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, "
        "float? scales_w=None) -> Tensor",
        upsample_aa_op);
  t.add("aten::_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? "
        "scale_factors) -> Tensor",
        upsample_aa_vec_op);
}

}  // namespace pt2web
