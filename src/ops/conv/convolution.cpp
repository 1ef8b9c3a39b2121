// Convolutions: convolution, _convolution, conv1d/2d/3d (.default and the
// .padding overloads taking 'same'/'valid'), conv_transpose1d/2d/3d.
//
// Every op validates its arguments with ATen's checks and wording, then runs
// the shared N-d kernels of kernels/conv/convolution.cpp on contiguous float32 or
// float64 data (16-bit floats compute in float32 and round once).
#include <sstream>

#include "kernels/conv/convolution.h"
#include "ops/conv/convolution_op.h"
#include "ops/conv/conv.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

namespace {

std::string torch_type(const Tensor& t) {
  switch (t.dtype()) {
    case DType::Float32: return "torch.FloatTensor";
    case DType::Float64: return "torch.DoubleTensor";
    case DType::Float16: return "torch.HalfTensor";
    case DType::BFloat16: return "torch.BFloat16Tensor";
    default: return std::string("torch.") + dtype_name(t.dtype());
  }
}

std::string join(const std::vector<int64_t>& v, const char* sep) {
  std::ostringstream out;
  for (size_t i = 0; i < v.size(); ++i) out << (i ? sep : "") << v[i];
  return out.str();
}

// ATen's expand_param_if_needed: one value or one per spatial dim.
std::vector<int64_t> expand_param(const OpCall& c, std::vector<int64_t> v, int64_t dims, const char* name) {
  repeat_single(v, static_cast<size_t>(dims));
  if (static_cast<int64_t>(v.size()) != dims)
    fail(ErrorCode::BadInput, c.where(), "expected ", name, " to be a single integer value or a list of ", dims,
         " values to match the convolution dimensions, but got ", name, "=", shape_to_string(v));
  return v;
}

// ATen's check_shape_forward and the input/parameter dtype checks.
void check_conv(const OpCall& c, const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvArgs& a) {
  const Shape& ws = weight.sizes();
  if (weight.dim() < 3)
    fail(ErrorCode::BadInput, c.where(), "weight should have at least three dimensions, got weight of size ",
         shape_to_string(ws));
  for (size_t i = 0; i < a.pad_l.size(); ++i)
    if (a.pad_l[i] < 0 || a.pad_r[i] < 0) fail(ErrorCode::BadInput, c.where(), "negative padding is not supported");
  for (int64_t v : a.output_padding)
    if (v < 0) fail(ErrorCode::BadInput, c.where(), "negative output_padding is not supported");
  for (int64_t v : a.stride)
    if (v <= 0) fail(ErrorCode::BadInput, c.where(), "non-positive stride is not supported");
  for (int64_t v : a.dilation)
    if (v <= 0) fail(ErrorCode::BadInput, c.where(), "dilation should be greater than zero");
  if (a.groups <= 0) fail(ErrorCode::BadInput, c.where(), "non-positive groups is not supported");
  if (input.dim() != weight.dim())
    fail(ErrorCode::BadInput, c.where(), "Expected ", weight.dim(), "-dimensional input for ", weight.dim(),
         "-dimensional weight ", shape_to_string(ws), ", but got ", input.dim(), "-dimensional input of size ",
         shape_to_string(input.sizes()), " instead");
  if (ws[0] < a.groups)
    fail(ErrorCode::BadInput, c.where(), "Given groups=", a.groups, ", expected weight to be at least ", a.groups,
         " at dimension 0, but got weight of size ", shape_to_string(ws), " instead");
  if (ws[0] % a.groups != 0)
    fail(ErrorCode::BadInput, c.where(), "Given groups=", a.groups, ", expected weight to be divisible by ", a.groups,
         " at dimension 0, but got weight of size [", join(ws, ", "), "] instead");
  if (!a.transposed) {
    if (input.size(1) != ws[1] * a.groups)
      fail(ErrorCode::BadInput, c.where(), "Given groups=", a.groups, ", weight of size ", shape_to_string(ws),
           ", expected input", shape_to_string(input.sizes()), " to have ", ws[1] * a.groups,
           " channels, but got ", input.size(1), " channels instead");
    if (bias.defined() && (bias.dim() != 1 || bias.size(0) != ws[0]))
      fail(ErrorCode::BadInput, c.where(), "Given weight of size ", shape_to_string(ws),
           ", expected bias to be 1-dimensional with ", ws[0], " elements, but got bias of size ",
           shape_to_string(bias.sizes()), " instead");
    std::vector<int64_t> padded, kernel;
    bool fits = true;
    for (int64_t i = 2; i < input.dim(); ++i) {
      padded.push_back(input.size(i) + a.pad_l[i - 2] + a.pad_r[i - 2]);
      kernel.push_back(a.dilation[i - 2] * (ws[i] - 1) + 1);
      fits = fits && padded.back() >= kernel.back();
    }
    if (!fits)
      fail(ErrorCode::BadInput, c.where(), "Calculated padded input size per channel: (", join(padded, " x "),
           "). Kernel size: (", join(kernel, " x "), "). Kernel size can't be greater than actual input size");
  } else {
    if (input.size(1) != ws[0])
      fail(ErrorCode::BadInput, c.where(), "Given transposed=1, weight of size ", shape_to_string(ws),
           ", expected input", shape_to_string(input.sizes()), " to have ", ws[0], " channels, but got ",
           input.size(1), " channels instead");
    if (bias.defined() && (bias.dim() != 1 || bias.size(0) != ws[1] * a.groups))
      fail(ErrorCode::BadInput, c.where(), "Given transposed=1, weight of size ", shape_to_string(ws),
           ", expected bias to be 1-dimensional with ", ws[1] * a.groups, " elements, but got bias of size ",
           shape_to_string(bias.sizes()), " instead");
    for (size_t i = 0; i < a.output_padding.size(); ++i)
      if (a.output_padding[i] >= a.stride[i] && a.output_padding[i] >= a.dilation[i])
        fail(ErrorCode::BadInput, c.where(), "output padding must be smaller than either stride or dilation, but got "
             "output_padding=", shape_to_string(a.output_padding), ", stride=", shape_to_string(a.stride),
             " and dilation=", shape_to_string(a.dilation));
  }
  if (input.dtype() != weight.dtype())
    fail(ErrorCode::BadInput, c.where(), "Input type (", torch_type(input), ") and weight type (", torch_type(weight),
         ") should be the same");
  if (bias.defined() && bias.dtype() != input.dtype())
    fail(ErrorCode::BadInput, c.where(), "Input type (", torch_type(input), ") and bias type (", torch_type(bias),
         ") should be the same");
  const DType d = input.dtype();
  if (d != DType::Float32 && d != DType::Float64 && d != DType::Float16 && d != DType::BFloat16 && !is_integral(d))
    fail(ErrorCode::BadInput, c.where(), "convolution is not implemented for input of dtype ", dtype_name(d));
}

// Output spatial size of one dim.
int64_t conv_out_size(const ConvArgs& a, size_t i, int64_t in, int64_t k) {
  if (a.transposed)
    return (in - 1) * a.stride[i] - a.pad_l[i] - a.pad_r[i] + a.dilation[i] * (k - 1) + a.output_padding[i] + 1;
  return (in + a.pad_l[i] + a.pad_r[i] - a.dilation[i] * (k - 1) - 1) / a.stride[i] + 1;
}

}  // namespace

// The convolution itself on a batched input [N, C, spatial...] (1 to 3 spatial dims).
Tensor convolution(const OpCall& c, const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvArgs& a) {
  check_conv(c, input, weight, bias, a);
  const int64_t dims = input.dim() - 2;
  if (dims < 1 || dims > 3)
    fail(ErrorCode::Unsupported, c.where(), "only 1-d, 2-d and 3-d convolutions are supported, got input of shape ",
         shape_to_string(input.sizes()));
  ConvShape s;
  s.batch = input.size(0);
  s.in_channels = input.size(1);
  s.out_channels = a.transposed ? weight.size(1) * a.groups : weight.size(0);
  s.groups = a.groups;
  Shape out_shape = {s.batch, s.out_channels};
  std::vector<int64_t> out_spatial;
  const int64_t lead = 3 - dims;
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t in = input.size(2 + i), k = weight.size(2 + i);
    const int64_t out = conv_out_size(a, i, in, k);
    out_spatial.push_back(out);
    s.input[lead + i] = in;
    s.output[lead + i] = out;
    s.kernel[lead + i] = k;
    s.stride[lead + i] = a.stride[i];
    s.pad[lead + i] = a.pad_l[i];
    s.dilation[lead + i] = a.dilation[i];
  }
  for (int64_t o : out_spatial)
    if (o <= 0)
      fail(ErrorCode::BadInput, c.where(), "Given input size per channel: ",
           shape_to_string(Shape(input.sizes().begin() + 2, input.sizes().end())),
           ". Calculated output size per channel: ", shape_to_string(out_spatial), ". Output size is too small");
  out_shape.insert(out_shape.end(), out_spatial.begin(), out_spatial.end());

  const DType dtype = input.dtype();
  // Integer convolutions are exact in int64 (ATen computes them too); the
  // wrap-around of narrower integer types survives the conversion back.
  const DType compute = dtype == DType::Float64 ? DType::Float64 : is_floating(dtype) ? DType::Float32 : DType::Int64;
  Tensor x = input.to(compute), w = weight.to(compute);
  Tensor b = bias.defined() ? bias.to(compute) : Tensor();
  Tensor y = Tensor::uninitialized(compute, out_shape);  // every path below writes all of it
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* bp = b.defined() ? b.data<T>() : nullptr;
    if (a.transposed) conv_transpose_forward<T>(s, x.data<T>(), w.data<T>(), bp, y.data<T>());
    else conv_forward<T>(s, x.data<T>(), w.data<T>(), bp, y.data<T>());
  };
  if (compute == DType::Float64) run(TypeTag<double>{});
  else if (compute == DType::Int64) run(TypeTag<int64_t>{});
  else run(TypeTag<float>{});
  return compute == dtype ? y : y.to(dtype);
}

ConvArgs conv_args(const OpCall& c, int64_t dims, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation, bool transposed,
                   const std::vector<int64_t>& output_padding, int64_t groups) {
  ConvArgs a;
  a.stride = expand_param(c, stride, dims, "stride");
  a.pad_l = expand_param(c, padding, dims, "padding");
  a.pad_r = a.pad_l;
  a.dilation = expand_param(c, dilation, dims, "dilation");
  a.output_padding = expand_param(c, output_padding, dims, "output_padding");
  a.transposed = transposed;
  a.groups = groups;
  return a;
}

namespace {

// convolution / _convolution(input, weight, bias, stride, padding, dilation,
//                            transposed, output_padding, groups, ...)
void convolution_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& weight = c.tensor(1);
  const int64_t dims = std::max<int64_t>(weight.dim() - 2, 1);
  ConvArgs a = conv_args(c, dims, c.int_list(3), c.int_list(4), c.int_list(5), c.bool_arg(6), c.int_list(7),
                         c.int_arg(8));
  c.push(convolution(c, input, weight, c.optional_tensor(2), a));
}

// conv1d/2d/3d and conv_transpose*d accept an unbatched input (one dim less)
// and return an unbatched result for it.
template <typename F>
Tensor batchify(const OpCall& c, const Tensor& input, int64_t dims, const char* name, F&& run) {
  if (input.dim() != dims + 1 && input.dim() != dims + 2)
    fail(ErrorCode::BadInput, c.where(), "Expected ", dims + 1, "D (unbatched) or ", dims + 2,
         "D (batched) input to ", name, ", but got input of size: ", shape_to_string(input.sizes()));
  if (input.dim() == dims + 2) return run(input);
  Tensor out = run(unsqueeze_view(input, 0));
  return squeeze_view(out, {0});
}

const char* conv_name(int dims, bool transposed) {
  static const char* names[2][3] = {{"conv1d", "conv2d", "conv3d"},
                                    {"conv_transpose1d", "conv_transpose2d", "conv_transpose3d"}};
  return names[transposed ? 1 : 0][dims - 1];
}

// convNd(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)
template <int Dims>
void conv_op(OpCall& c) {
  ConvArgs a = conv_args(c, Dims, c.int_list(3), c.int_list(4), c.int_list(5), false, {0}, c.int_arg(6));
  c.push(batchify(c, c.tensor(0), Dims, conv_name(Dims, false),
                  [&](const Tensor& x) { return convolution(c, x, c.tensor(1), c.optional_tensor(2), a); }));
}

// convNd.padding(input, weight, bias=None, stride=1, padding="valid", dilation=1, groups=1):
// 'same' pads dilation*(k-1) in total per dim, the odd element on the right.
template <int Dims>
void conv_padding_op(OpCall& c) {
  const std::string mode = c.string_arg(4);
  ConvArgs a = conv_args(c, Dims, c.int_list(3), {0}, c.int_list(5), false, {0}, c.int_arg(6));
  const Tensor& weight = c.tensor(1);
  if (mode == "same") {
    for (int64_t s : a.stride)
      if (s != 1) fail(ErrorCode::BadInput, c.where(), "padding='same' is not supported for strided convolutions");
    if (weight.dim() != Dims + 2)
      fail(ErrorCode::BadInput, c.where(), "Expected ", Dims + 2, "-dimensional weight for ", conv_name(Dims, false),
           ", but got weight of size ", shape_to_string(weight.sizes()));
    for (int i = 0; i < Dims; ++i) {
      const int64_t total = a.dilation[i] * (weight.size(2 + i) - 1);
      a.pad_l[i] = total / 2;
      a.pad_r[i] = total - total / 2;
    }
  } else if (mode != "valid") {
    fail(ErrorCode::BadInput, c.where(), "Invalid padding string: '", mode, "'");
  }
  c.push(batchify(c, c.tensor(0), Dims, conv_name(Dims, false),
                  [&](const Tensor& x) { return convolution(c, x, weight, c.optional_tensor(2), a); }));
}

// conv_transposeNd(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)
template <int Dims>
void conv_transpose_op(OpCall& c) {
  ConvArgs a = conv_args(c, Dims, c.int_list(3), c.int_list(4), c.int_list(7), true, c.int_list(5), c.int_arg(6));
  c.push(batchify(c, c.tensor(0), Dims, conv_name(Dims, true),
                  [&](const Tensor& x) { return convolution(c, x, c.tensor(1), c.optional_tensor(2), a); }));
}

}  // namespace

void register_convolution_ops(OpTable& t) {
  t.add("aten::convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
        "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor",
        convolution_op);
  t.add("aten::_convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
        "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool benchmark, "
        "bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor",
        convolution_op);
  t.add("aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, "
        "SymInt[1] dilation=1, SymInt groups=1) -> Tensor",
        conv_op<1>);
  t.add("aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
        "SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
        conv_op<2>);
  t.add("aten::conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, SymInt[3] padding=0, "
        "SymInt[3] dilation=1, SymInt groups=1) -> Tensor",
        conv_op<3>);
  t.add("aten::conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, "
        "str padding=\"valid\", SymInt[1] dilation=1, SymInt groups=1) -> Tensor",
        conv_padding_op<1>);
  t.add("aten::conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, "
        "str padding=\"valid\", SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
        conv_padding_op<2>);
  t.add("aten::conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, "
        "str padding=\"valid\", SymInt[3] dilation=1, SymInt groups=1) -> Tensor",
        conv_padding_op<3>);
  t.add("aten::conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, "
        "SymInt[1] padding=0, SymInt[1] output_padding=0, SymInt groups=1, SymInt[1] dilation=1) -> Tensor",
        conv_transpose_op<1>);
  t.add("aten::conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, "
        "SymInt[2] padding=0, SymInt[2] output_padding=0, SymInt groups=1, SymInt[2] dilation=1) -> Tensor",
        conv_transpose_op<2>);
  t.add("aten::conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, "
        "SymInt[3] padding=0, SymInt[3] output_padding=0, SymInt groups=1, SymInt[3] dilation=1) -> Tensor",
        conv_transpose_op<3>);
}

}  // namespace pt2web
