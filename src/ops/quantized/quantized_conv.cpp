// pt2web::quantized_conv2d: a 2-d convolution on int8 values (product.h).
// Depthwise groups (one input and one output channel) run a plane per task:
// 3x3 and 5x5 kernels at stride 1 or 2 through kernels/int8/depthwise_pairs (row
// pairs, requantized in registers), others through depthwise_s16 on the
// widened plane with its zero border. The others pack their patches into the panels of
// kernels/int8/dot_panels.h (1x1 convolutions straight from the input
// planes, others gathered patch by patch) and multiply them with the
// widened weight rows (widened_weights.h: kept between runs for a fixed
// weight), requantizing each tile into the output.
#include <vector>

#include "kernels/int8/depthwise_pairs.h"
#include "kernels/int8/depthwise_s16.h"
#include "kernels/int8/dot_gemm_s16.h"
#include "kernels/int8/dot_panels.h"
#include "kernels/int8/widen.h"
#include "kernels/parallel/thread_pool.h"
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

// Depthwise: one input and one output channel per group, a plane at a time.
template <typename Q>
void run_depthwise(const Tensor& x, const WidenedWeight& w, const ConvGeometry& g, const ProductQuantization& q,
                   Tensor& out) {
  const int64_t channels = x.size(1), P = g.out_h * g.out_w, plane = g.height * g.width;
  const int64_t padded_plane = (g.height + 2 * g.pad_h) * (g.width + 2 * g.pad_w);
  const Q* image = x.data<Q>();
  if (depthwise_pairs_fits(g)) {
    parallel::for_each_index(x.size(0) * channels, P * g.kernel_h * g.kernel_w, [&](int64_t i) {
      thread_local std::vector<int16_t> scratch;
      scratch.resize(static_cast<size_t>(depthwise_pairs_scratch(g)));
      const int64_t c = i % channels;
      depthwise_pairs(image + i * plane, g, q.input_zero_point, w.rows.data<int16_t>() + c * w.ld,
                      output_sink(q, out, i * P, 0, 1, c), scratch.data());
    });
    return;
  }
  parallel::for_each_index(x.size(0) * channels, P * g.kernel_h * g.kernel_w, [&](int64_t i) {
    thread_local std::vector<int16_t> padded;
    thread_local std::vector<int32_t> acc;
    padded.resize(static_cast<size_t>(padded_plane));
    acc.resize(static_cast<size_t>(P));
    const int64_t c = i % channels;
    widen_padded_plane(image + i * plane, g.height, g.width, g.pad_h, g.pad_w, q.input_zero_point, padded.data());
    depthwise_s16(padded.data(), w.rows.data<int16_t>() + c * w.ld, g, acc.data());
    store_requantized(output_sink(q, out, i * P, 0, 1, c), 0, 0, acc.data(), P);
  });
}

// The others: per image and group, the patches packed into panels (a 1x1
// convolution with stride 1 and no padding reads its input planes as they
// are) and multiplied with the group's weight rows.
template <typename Q>
void run_groups(const Tensor& x, const WidenedWeight& w, int64_t out_channels, int64_t groups,
                const ConvGeometry& g, const ProductQuantization& q, Tensor& out) {
  const int64_t batch = x.size(0), channels = x.size(1), oc_per_group = out_channels / groups;
  const int64_t K = g.channels * g.kernel_h * g.kernel_w, P = g.out_h * g.out_w, plane = g.height * g.width;
  if (g.channels == 1 && oc_per_group == 1) return run_depthwise<Q>(x, w, g, q, out);
  const bool pointwise = g.kernel_h == 1 && g.kernel_w == 1 && g.stride_h == 1 && g.stride_w == 1 &&
                         g.pad_h == 0 && g.pad_w == 0;
  Tensor panels = Tensor::uninitialized(DType::Int16, {panel_values(P, K)});
  const Q* image = x.data<Q>();
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t gi = 0; gi < groups; ++gi) {
      const Q* group_in = image + (b * channels + gi * g.channels) * plane;
      const int64_t first_oc = gi * oc_per_group;
      if (pointwise) {
        pack_panels_from_columns(group_in, P, K, P, q.input_zero_point, panels.data<int16_t>());
      } else {
        pack_panels_from_patches(group_in, g, q.input_zero_point, panels.data<int16_t>());
      }
      packed_product(oc_per_group, P, K, w, first_oc, panels.data<int16_t>(),
                     output_sink(q, out, (b * out_channels + first_oc) * P, P, 1, first_oc));
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
  // the depthwise kernel reads int16 weights
  const bool depthwise = g.channels == 1 && out_channels == groups;
  const WidenedWeight rows = widened_weight(w, out_channels, K, q.weight_zero_points, c.bool_arg(18), !depthwise);
  if (x.dtype() == DType::Int8) run_groups<int8_t>(x, rows, out_channels, groups, g, q, out);
  else run_groups<uint8_t>(x, rows, out_channels, groups, g, q, out);
  c.push(unbatched ? squeeze_view(out, {0}) : out);
}

}  // namespace

void register_quantized_conv_ops(OpTable& t) {
  t.add("pt2web::quantized_conv2d(Tensor input, Tensor weight, SymInt[] stride, SymInt[] padding, "
        "SymInt[] dilation, SymInt groups, Tensor input_scale, Tensor input_zero_point, Tensor weight_scales, "
        "Tensor? weight_zero_points, Tensor? bias, float? clamp_min, float? clamp_max, Tensor? output_scale, "
        "Tensor? output_zero_point, int output_quant_min, int output_quant_max, ScalarType? output_dtype, "
        "bool weight_fixed=False) -> Tensor",
        quantized_conv2d_op);
}

}  // namespace pt2web::quantized
