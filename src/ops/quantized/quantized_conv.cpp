// pt2web::quantized_conv2d: a 2-d convolution on int8 values (product.h).
// Per image and group: depthwise groups (one input and one output channel)
// run kernels/int8/depthwise_s16 on the widened plane with its zero border; the others gather
// int16 patch rows (im2col_s16, zero outside the input) and form the int32
// sums with dot_gemm_s16 against the widened weight rows, output channel by
// output channel. Weights are widened once per call; nothing is kept.
#include "kernels/int8/depthwise_s16.h"
#include "kernels/int8/dot_gemm_s16.h"
#include "kernels/int8/widen.h"
#include "ops/quantized/product.h"
#include "ops/quantized/quantized.h"
#include "ops/views.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

int64_t pick(const std::vector<int64_t>& v, size_t i, const OpCall& c, const char* what) {
  if (v.size() == 1) return v[0];
  if (v.size() != 2) fail(ErrorCode::BadInput, c.where(), what, " must have 1 or 2 values, got ", v.size());
  return v[i];
}

template <typename Q>
void run_groups(OpCall& c, const Tensor& x, const Tensor& w16, int64_t groups, ConvGeometry g,
                const ProductQuantization& q, Tensor& out) {
  const int64_t batch = x.size(0), channels = x.size(1), out_channels = w16.size(0);
  const int64_t oc_per_group = out_channels / groups, K = w16.size(1);
  const int64_t P = g.out_h * g.out_w, plane = g.height * g.width;
  const bool depthwise = g.channels == 1 && oc_per_group == 1;
  Tensor acc = Tensor::uninitialized(DType::Int32, {depthwise ? P : oc_per_group * P});
  const int64_t padded_plane = (g.height + 2 * g.pad_h) * (g.width + 2 * g.pad_w);
  Tensor rows = Tensor::uninitialized(DType::Int16, {depthwise ? padded_plane : P * K});
  const Q* image = x.data<Q>();
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t gi = 0; gi < groups; ++gi) {
      const Q* group_in = image + (b * channels + gi * g.channels) * plane;
      const int64_t first_oc = gi * oc_per_group;
      if (depthwise) {
        widen_padded_plane(group_in, g.height, g.width, g.pad_h, g.pad_w, q.input_zero_point, rows.data<int16_t>());
        depthwise_s16(rows.data<int16_t>(), w16.data<int16_t>() + first_oc * K, g, acc.data<int32_t>());
      } else {
        im2col_s16(group_in, g, q.input_zero_point, rows.data<int16_t>());
        dot_rows(oc_per_group, P, K, w16.data<int16_t>() + first_oc * K, rows.data<int16_t>(), acc.data<int32_t>());
      }
      for (int64_t o = 0; o < oc_per_group; ++o)
        store_outputs(acc.data<int32_t>() + o * P, P, first_oc + o, q, out, (b * out_channels + first_oc + o) * P, 1);
    }
}

// (input, weight, stride, padding, dilation, groups, then the quantization arguments of product.h)
void quantized_conv2d_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& w = c.tensor(1);
  check_int8_operand(c, input, "input");
  check_int8_operand(c, w, "weight");
  const int64_t groups = c.int_arg(5);
  const bool unbatched = input.dim() == 3;
  Tensor x = (unbatched ? unsqueeze_view(input, 0) : input).contiguous();
  if (w.dim() != 4 || x.dim() != 4 || groups <= 0 || x.size(1) != w.size(1) * groups || w.size(0) % groups != 0)
    fail(ErrorCode::BadInput, c.where(), "input ", shape_to_string(input.sizes()), " does not fit weight ",
         shape_to_string(w.sizes()), " with groups=", groups);
  const auto stride = c.int_list(2), padding = c.int_list(3), dilation = c.int_list(4);
  ConvGeometry g;
  g.channels = w.size(1);
  g.height = x.size(2);
  g.width = x.size(3);
  g.kernel_h = w.size(2);
  g.kernel_w = w.size(3);
  g.stride_h = pick(stride, 0, c, "stride");
  g.stride_w = pick(stride, 1, c, "stride");
  g.pad_h = pick(padding, 0, c, "padding");
  g.pad_w = pick(padding, 1, c, "padding");
  g.dilation_h = pick(dilation, 0, c, "dilation");
  g.dilation_w = pick(dilation, 1, c, "dilation");
  if (g.stride_h <= 0 || g.stride_w <= 0 || g.dilation_h <= 0 || g.dilation_w <= 0 || g.pad_h < 0 || g.pad_w < 0)
    fail(ErrorCode::BadInput, c.where(), "stride and dilation must be positive and padding non-negative");
  const int64_t span_h = g.height + 2 * g.pad_h - g.dilation_h * (g.kernel_h - 1) - 1;
  const int64_t span_w = g.width + 2 * g.pad_w - g.dilation_w * (g.kernel_w - 1) - 1;
  if (span_h < 0 || span_w < 0)
    fail(ErrorCode::BadInput, c.where(), "the kernel does not fit the padded input ", shape_to_string(input.sizes()));
  g.out_h = span_h / g.stride_h + 1;
  g.out_w = span_w / g.stride_w + 1;
  const int64_t K = g.channels * g.kernel_h * g.kernel_w;
  if (K > kMaxDotK) fail(ErrorCode::Unsupported, c.where(), "more than ", kMaxDotK, " values per output");
  const int64_t out_channels = w.size(0);
  ProductQuantization q;
  read_product_quantization(c, 6, out_channels, q);
  check_zero_points(c, q, x.dtype(), w.dtype());
  Tensor out = Tensor::uninitialized(q.output_dtype, {x.size(0), out_channels, g.out_h, g.out_w});
  Tensor w16 = widened_rows(w, out_channels, K, q.weight_zero_points);
  if (x.dtype() == DType::Int8) run_groups<int8_t>(c, x, w16, groups, g, q, out);
  else run_groups<uint8_t>(c, x, w16, groups, g, q, out);
  c.push(unbatched ? squeeze_view(out, {0}) : out);
}

}  // namespace

void register_quantized_conv_ops(OpTable& t) {
  t.add("pt2web::quantized_conv2d(Tensor input, Tensor weight, SymInt[] stride, SymInt[] padding, "
        "SymInt[] dilation, SymInt groups, Tensor input_scale, Tensor input_zero_point, Tensor weight_scales, "
        "Tensor? weight_zero_points, Tensor? bias, float? clamp_min, float? clamp_max, Tensor? output_scale, "
        "Tensor? output_zero_point, int output_quant_min, int output_quant_max, ScalarType? output_dtype) -> Tensor",
        quantized_conv2d_op);
}

}  // namespace pt2web::quantized
