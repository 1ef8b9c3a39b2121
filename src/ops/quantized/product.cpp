#include "ops/quantized/product.h"

#include <limits>

#include "kernels/int8/dot_gemm_s16.h"
#include "kernels/int8/dot_panels.h"
#include "kernels/parallel/thread_pool.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

double one_element(const OpCall& c, size_t index) {
  const Tensor& t = c.tensor(index);
  if (t.numel() != 1)
    fail(ErrorCode::BadInput, c.where(), c.arg_name(index), " must have one element, got ", t.numel());
  return t.item_as_double();
}

}  // namespace

void check_int8_operand(const OpCall& c, const Tensor& t, const char* what) {
  if (t.dtype() != DType::Int8 && t.dtype() != DType::UInt8)
    fail(ErrorCode::BadInput, c.where(), what, " must hold int8 or uint8 values, got ", dtype_name(t.dtype()));
}

void check_zero_points(const OpCall& c, const ProductQuantization& q, DType input, DType weight) {
  auto inside = [](int32_t zp, DType t) { return t == DType::Int8 ? zp >= -128 && zp <= 127 : zp >= 0 && zp <= 255; };
  bool ok = inside(q.input_zero_point, input);
  for (int32_t zp : q.weight_zero_points) ok = ok && inside(zp, weight);
  if (!ok) fail(ErrorCode::Unsupported, c.where(), "zero points outside their operand's ", dtype_name(weight), " range");
}

void read_product_quantization(const OpCall& c, size_t first, int64_t out_channels, ProductQuantization& q) {
  const double x_scale = one_element(c, first);
  q.input_zero_point = static_cast<int32_t>(one_element(c, first + 1));
  const Tensor& w_scales = c.tensor(first + 2);
  const Tensor w_zero = c.optional_tensor(first + 3);
  if (w_scales.numel() != 1 && w_scales.numel() != out_channels)
    fail(ErrorCode::BadInput, c.where(), "weight_scales has ", w_scales.numel(), " values for ", out_channels,
         " output channels");
  if (w_zero.defined() && w_zero.numel() != w_scales.numel())
    fail(ErrorCode::BadInput, c.where(), "weight_zero_points has ", w_zero.numel(), " values, weight_scales ",
         w_scales.numel());
  q.multiplier.resize(out_channels);
  q.weight_zero_points.assign(out_channels, 0);
  for (int64_t n = 0; n < out_channels; ++n) {
    const int64_t k = w_scales.numel() == 1 ? 0 : n;
    q.multiplier[n] = static_cast<float>(x_scale * w_scales.item_as_double(k));
    if (w_zero.defined()) q.weight_zero_points[n] = static_cast<int32_t>(w_zero.item_as_int(k));
  }
  q.bias = c.optional_tensor(first + 4);
  if (q.bias.defined()) {
    if (q.bias.numel() != out_channels)
      fail(ErrorCode::BadInput, c.where(), "bias has ", q.bias.numel(), " values for ", out_channels,
           " output channels");
    q.bias = q.bias.to(DType::Float32);
  }
  Requantization& r = q.requant;
  r.multiplier = q.multiplier.data();
  r.bias = q.bias.defined() ? q.bias.data<float>() : nullptr;
  if (auto lo = c.optional_double(first + 5)) r.lo = static_cast<float>(*lo);
  if (auto hi = c.optional_double(first + 6)) r.hi = static_cast<float>(*hi);
  const Tensor out_scale = c.optional_tensor(first + 7);
  r.quantize = out_scale.defined();
  if (r.quantize) {
    r.inv_out_scale = static_cast<float>(1.0 / one_element(c, first + 7));
    r.out_zero_point = static_cast<float>(one_element(c, first + 8));
    r.qmin = static_cast<float>(c.int_arg(first + 9));
    r.qmax = static_cast<float>(c.int_arg(first + 10));
    q.output_dtype = c.optional_dtype(first + 11).value_or(DType::Int8);
    if (q.output_dtype != DType::Int8 && q.output_dtype != DType::UInt8)
      fail(ErrorCode::BadInput, c.where(), "output_dtype must be int8 or uint8");
  }
}

RequantizedOutput output_sink(const ProductQuantization& q, Tensor& out, int64_t at, int64_t ld_m, int64_t ld_n,
                              int64_t channel0) {
  RequantizedOutput o;
  o.requant = &q.requant;
  o.ld_m = ld_m;
  o.ld_n = ld_n;
  o.channel0 = channel0;
  switch (out.dtype()) {
    case DType::Int8: o.kind = QuantizedOutputKind::Int8, o.data = out.data<int8_t>() + at; break;
    case DType::UInt8: o.kind = QuantizedOutputKind::UInt8, o.data = out.data<uint8_t>() + at; break;
    default: o.kind = QuantizedOutputKind::Float32, o.data = out.data<float>() + at; break;
  }
  return o;
}

void packed_product(int64_t M, int64_t N, int64_t K, const WidenedWeight& w, int64_t first_row,
                    const int16_t* panels, const RequantizedOutput& sink) {
  PackedDotArgs g;
  g.M = M;
  g.N = N;
  g.K = K;
  if (w.int8) g.a8 = w.rows.data<int8_t>() + first_row * w.ld;
  else g.a = w.rows.data<int16_t>() + first_row * w.ld;
  g.lda = w.ld;
  g.panels = panels;
  // Whole tiles (two panels) per part; each part's work is M * K per column.
  parallel::parallel_for(panel_count(N), 2, parallel::min_items_for(4 * M * K), [&](int64_t begin, int64_t end) {
    PackedDotArgs part = g;
    part.panel_first = begin;
    part.panel_end = end;
    dot_gemm_packed(part, sink);
  });
}

}  // namespace pt2web::quantized
