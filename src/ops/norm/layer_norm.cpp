// Normalization over trailing dims or channel groups: layer_norm,
// native_layer_norm, group_norm, native_group_norm, rms_norm.
//
// As in ATen's CPU kernels: rstd = 1/sqrt(max(var, 0) + eps) with the biased
// variance, the result computed in the input's opmath type and rounded once.
// mean/rstd outputs are float32 for 16-bit inputs with float32 parameters.
#include <cmath>
#include <limits>
#include <sstream>

#include "kernels/norm/layer_norm_rows.h"
#include "ops/elementwise.h"
#include "ops/norm/norm.h"
#include "ops/norm/normalization.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

namespace {

double layer_rstd(double var, double eps) { return 1.0 / std::sqrt(std::max(var, 0.0) + eps); }

// Checks ATen's _check_layer_norm_inputs rules (shared by rms_norm) and
// returns the number of leading rows M (the normalized size is numel / M).
int64_t check_trailing_shape(const OpCall& c, const Tensor& input, const std::vector<int64_t>& normalized_shape,
                             const Tensor& weight, const Tensor& bias) {
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  if (k < 1)
    fail(ErrorCode::BadInput, c.where(), "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
         "least one element, but got normalized_shape = ", shape_to_string(normalized_shape));
  if (weight.defined() && weight.sizes() != normalized_shape)
    fail(ErrorCode::BadInput, c.where(), "Expected weight to be of same shape as normalized_shape, but got weight of "
         "shape ", shape_to_string(weight.sizes()), " and normalized_shape = ", shape_to_string(normalized_shape));
  if (bias.defined() && bias.sizes() != normalized_shape)
    fail(ErrorCode::BadInput, c.where(), "Expected bias to be of same shape as normalized_shape, but got bias of "
         "shape ", shape_to_string(bias.sizes()), " and normalized_shape = ", shape_to_string(normalized_shape));
  const int64_t axis = input.dim() - k;
  if (axis < 0 || Shape(input.sizes().begin() + axis, input.sizes().end()) != normalized_shape) {
    std::ostringstream expected;
    expected << "[*";
    for (int64_t s : normalized_shape) expected << ", " << s;
    expected << "]";
    fail(ErrorCode::BadInput, c.where(), "Given normalized_shape=", shape_to_string(normalized_shape),
         ", expected input with shape ", expected.str(), ", but got input of size", shape_to_string(input.sizes()));
  }
  return shape_numel(Shape(input.sizes().begin(), input.sizes().begin() + axis));
}

// Normalizes each row of x [M, N] with its own mean/rstd and the per-column
// affine parameters w/b (empty when absent): y = (x*rstd - mean*rstd)*w + b.
template <typename T>
void layer_norm_rows(const T* x, T* y, int64_t M, int64_t N, const std::vector<double>& mean,
                     const std::vector<double>& rstd, const std::vector<double>& w, const std::vector<double>& b) {
  using Op = opmath_t<T>;
  std::vector<Op> wm(w.begin(), w.end()), bm(b.begin(), b.end());
  for (int64_t m = 0; m < M; ++m) {
    const Op scale = static_cast<Op>(rstd[m]);
    const Op shift = static_cast<Op>(-rstd[m] * mean[m]);
    const T* xr = x + m * N;
    T* yr = y + m * N;
    for (int64_t i = 0; i < N; ++i) {
      Op v = static_cast<Op>(xr[i]) * scale + shift;
      if (!wm.empty()) v *= wm[i];
      if (!bm.empty()) v += bm[i];
      yr[i] = static_cast<T>(v);
    }
  }
}

struct LayerNormResult {
  Tensor out, mean, rstd;
};

// Shape of mean/rstd: the leading dims, then size 1 in each normalized dim.
Shape stat_shape_of(const Tensor& input, size_t normalized_dims) {
  Shape shape(input.sizes().begin(), input.sizes().end() - static_cast<int64_t>(normalized_dims));
  shape.resize(input.sizes().size(), 1);
  return shape;
}

bool float32_or_absent(const Tensor& t) { return !t.defined() || t.dtype() == DType::Float32; }

// float32 input and parameters: the vectorized row kernel, in float32 as
// ATen's CPU kernel computes it. with_stats: also fill mean and rstd.
LayerNormResult layer_norm_f32(const Tensor& x, int64_t M, int64_t N, size_t normalized_dims, const Tensor& weight,
                               const Tensor& bias, double eps, bool with_stats) {
  LayerNormResult r;
  r.out = Tensor::empty(DType::Float32, x.sizes());
  if (with_stats) {
    const Shape stat_shape = stat_shape_of(x, normalized_dims);
    r.mean = Tensor::empty(DType::Float32, stat_shape);
    r.rstd = Tensor::empty(DType::Float32, stat_shape);
  }
  const Tensor w = weight.defined() ? weight.contiguous() : Tensor();
  const Tensor b = bias.defined() ? bias.contiguous() : Tensor();
  layer_norm_rows_f32(x.data<float>(), r.out.data<float>(), M, N, w.defined() ? w.data<float>() : nullptr,
                      b.defined() ? b.data<float>() : nullptr, static_cast<float>(eps),
                      with_stats ? r.mean.data<float>() : nullptr, with_stats ? r.rstd.data<float>() : nullptr);
  return r;
}

LayerNormResult layer_norm_impl(const OpCall& c, const Tensor& input, const std::vector<int64_t>& normalized_shape,
                                const Tensor& weight, const Tensor& bias, double eps, bool with_stats) {
  require_floating_input(c, input);
  const int64_t M = check_trailing_shape(c, input, normalized_shape, weight, bias);
  const int64_t N = shape_numel(normalized_shape);
  Tensor x = input.contiguous();
  if (x.dtype() == DType::Float32 && float32_or_absent(weight) && float32_or_absent(bias) && M > 0 && N > 0)
    return layer_norm_f32(x, M, N, normalized_shape.size(), weight, bias, eps, with_stats);
  GroupMoments m = grouped_moments(x, N, M, [](int64_t row) { return row; });
  std::vector<double> rstd(M);
  for (int64_t r = 0; r < M; ++r) rstd[r] = layer_rstd(m.var[r], eps);
  std::vector<double> w = weight.defined() ? param_values(c, weight, N, 1.0, "weight") : std::vector<double>();
  std::vector<double> b = bias.defined() ? param_values(c, bias, N, 0.0, "bias") : std::vector<double>();
  LayerNormResult r;
  r.out = Tensor::empty(x.dtype(), x.sizes());
  visit_floating_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    layer_norm_rows<T>(x.data<T>(), r.out.data<T>(), M, N, m.mean, rstd, w, b);
  });
  const Shape stat_shape = stat_shape_of(input, normalized_shape.size());
  const DType sd = stats_dtype(input, {weight, bias});
  r.mean = tensor_from_doubles(m.mean, stat_shape, sd);
  r.rstd = tensor_from_doubles(rstd, stat_shape, sd);
  return r;
}

// layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True)
void layer_norm_op(OpCall& c) {
  c.push(layer_norm_impl(c, c.tensor(0), c.int_list(1), c.optional_tensor(2), c.optional_tensor(3), c.double_arg(4),
                         false)
             .out);
}

// native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd)
void native_layer_norm_op(OpCall& c) {
  LayerNormResult r =
      layer_norm_impl(c, c.tensor(0), c.int_list(1), c.optional_tensor(2), c.optional_tensor(3), c.double_arg(4), true);
  c.push(r.out);
  c.push(r.mean);
  c.push(r.rstd);
}

struct GroupNormResult {
  Tensor out, mean, rstd;
};

// Group norm of input viewed as [N, C, HxW] in `group` groups of channels.
GroupNormResult group_norm_impl(const OpCall& c, const Tensor& input, const Tensor& weight, const Tensor& bias,
                                int64_t N, int64_t C, int64_t HxW, int64_t group, double eps) {
  require_floating_input(c, input);
  if (group <= 0) fail(ErrorCode::BadInput, c.where(), "Expected num groups to be greater than 0, got ", group);
  if (C % group != 0)
    fail(ErrorCode::BadInput, c.where(), "Expected number of channels in input to be divisible by num_groups, but got "
         "input of shape ", shape_to_string(input.sizes()), " and num_groups=", group);
  if (input.numel() != N * C * HxW)
    fail(ErrorCode::BadInput, c.where(), "input of shape ", shape_to_string(input.sizes()), " does not have N*C*HxW = ",
         N, "*", C, "*", HxW, " elements");
  const std::vector<double> w = param_values(c, weight, C, 1.0, "weight");
  const std::vector<double> b = param_values(c, bias, C, 0.0, "bias");
  const int64_t per_group = C / group;
  // Blocks are (n, c) rows of HxW elements; group (n, g) holds per_group consecutive blocks.
  GroupMoments m = grouped_moments(input, HxW, N * group, [per_group](int64_t blk) { return blk / per_group; });
  std::vector<double> rstd(N * group);
  for (int64_t i = 0; i < N * group; ++i) rstd[i] = layer_rstd(m.var[i], eps);
  std::vector<double> scale(N * C), shift(N * C);
  for (int64_t blk = 0; blk < N * C; ++blk) {
    const int64_t ch = blk % C, g = blk / per_group;
    scale[blk] = rstd[g] * w[ch];
    shift[blk] = b[ch] - m.mean[g] * scale[blk];
  }
  GroupNormResult r;
  r.out = reshape(block_affine(input, HxW, scale, shift), input.sizes());
  const DType sd = stats_dtype(input, {weight, bias});
  r.mean = tensor_from_doubles(m.mean, {N, group}, sd);
  r.rstd = tensor_from_doubles(rstd, {N, group}, sd);
  return r;
}

// group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True)
void group_norm_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const int64_t groups = c.int_arg(1);
  Tensor weight = c.optional_tensor(2), bias = c.optional_tensor(3);
  if (input.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "Expected at least 2 dimensions for input tensor but received ", input.dim());
  const int64_t N = input.size(0), C = input.size(1);
  if (groups > 0 && C % groups != 0)
    fail(ErrorCode::BadInput, c.where(), "Expected number of channels in input to be divisible by num_groups, but got "
         "input of shape ", shape_to_string(input.sizes()), " and num_groups=", groups);
  for (const Tensor* p : {&weight, &bias})
    if (p->defined() && (p->dim() != 1 || p->numel() != C))
      fail(ErrorCode::BadInput, c.where(), "Expected ", p == &weight ? "weight" : "bias",
           " to be a vector of size equal to the number of channels in input, but got ",
           p == &weight ? "weight" : "bias", " of shape ", shape_to_string(p->sizes()), " and input of shape ",
           shape_to_string(input.sizes()));
  const int64_t HxW = shape_numel(Shape(input.sizes().begin() + 2, input.sizes().end()));
  c.push(group_norm_impl(c, input, weight, bias, N, C, HxW, groups, c.double_arg(4)).out);
}

// native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> (out, mean, rstd)
void native_group_norm_op(OpCall& c) {
  GroupNormResult r = group_norm_impl(c, c.tensor(0), c.optional_tensor(1), c.optional_tensor(2), c.int_arg(3),
                                      c.int_arg(4), c.int_arg(5), c.int_arg(6), c.double_arg(7));
  c.push(r.out);
  c.push(r.mean);
  c.push(r.rstd);
}

// rms_norm(input, normalized_shape, weight=None, eps=None): ATen's composite
// computes x * rsqrt(mean(x^2) + eps) in opmath, rounds to the input dtype,
// then multiplies by weight (with type promotion). eps defaults to the
// opmath type's machine epsilon and is first rounded to the input dtype.
void rms_norm_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const std::vector<int64_t> normalized_shape = c.int_list(1);
  Tensor weight = c.optional_tensor(2);
  std::optional<double> eps_arg = c.optional_double(3);
  require_floating_input(c, input);
  const int64_t M = check_trailing_shape(c, input, normalized_shape, weight, Tensor());
  const int64_t N = shape_numel(normalized_shape);
  Tensor x = input.contiguous();
  Tensor out = Tensor::empty(x.dtype(), x.sizes());
  visit_floating_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Op = opmath_t<T>;
    const Op eps = static_cast<Op>(static_cast<T>(eps_arg ? *eps_arg : std::numeric_limits<Op>::epsilon()));
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    for (int64_t m = 0; m < M; ++m) {
      double sq = 0.0;
      for (int64_t i = 0; i < N; ++i) {
        const double v = static_cast<double>(static_cast<Op>(src[m * N + i]));
        sq += v * v;
      }
      const Op ms = static_cast<Op>(sq / static_cast<double>(N));
      const Op r = Op(1) / std::sqrt(ms + eps);
      for (int64_t i = 0; i < N; ++i) dst[m * N + i] = static_cast<T>(static_cast<Op>(src[m * N + i]) * r);
    }
  });
  if (weight.defined()) {
    const DType dtype = promote_types(out.dtype(), weight.dtype());
    out = elementwise::map_elements<elementwise::Kinds::Floating, false>(
        dtype, [](auto a, auto b) { return a * b; }, elementwise::kernel_input(elementwise::operand(out), dtype),
        elementwise::kernel_input(elementwise::operand(weight), dtype));
  }
  c.push(out);
}

}  // namespace

void register_layer_norm_ops(OpTable& t) {
  t.add("aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
        "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
        layer_norm_op);
  t.add("aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) "
        "-> (Tensor, Tensor, Tensor)",
        native_layer_norm_op);
  t.add("aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, "
        "bool cudnn_enabled=True) -> Tensor",
        group_norm_op);
  t.add("aten::native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, "
        "int group, float eps) -> (Tensor, Tensor, Tensor)",
        native_group_norm_op);
  t.add("aten::rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor",
        rms_norm_op);
}

}  // namespace pt2web
