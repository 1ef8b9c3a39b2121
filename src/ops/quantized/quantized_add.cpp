// pt2web::quantized_add: dequantize(a) + dequantize(b) (-> clamp) -> quantize,
// the residual add of PT2E programs (with the relu of ResNet's blocks), and
// pt2web::quantized_mul, the same with * (squeeze-excite's gate), on the
// int8/uint8 values
// (kernels/int8/quantized_add.h), which runtime/quantized_fusion.h puts in
// place of the four (five) nodes. Operands of different shapes broadcast as
// aten::add does (expanded into contiguous copies first, by memset for a
// per-channel gate); the kernel splits over threads.
#include <cstring>
#include <string>

#include "kernels/int8/quantized_add.h"
#include "kernels/parallel/thread_pool.h"
#include "ops/quantized/quantized.h"
#include "ops/views.h"
#include "tensor/strided_loop.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

template <bool kMultiply, typename Q>
void combine_values(const Tensor& a, const Tensor& b, const QuantizedAddParams& p, Tensor& out) {
  const Q* x = a.data<Q>();
  const Q* y = b.data<Q>();
  Q* z = out.data<Q>();
  parallel::parallel_for(out.numel(), 64, parallel::min_items_for(4), [&](int64_t begin, int64_t end) {
    if (kMultiply) quantized_mul(x + begin, y + begin, end - begin, p, z + begin);
    else quantized_add(x + begin, y + begin, end - begin, p, z + begin);
  });
}

// Operand t (bytes) broadcast to `shape` and made contiguous. One that
// varies only in leading dimensions, with size 1 in all after them (the
// squeeze-excite gate [N, C, 1, 1] against [N, C, H, W]), repeats each value
// with memset; others take the strided copy of the expanded view.
Tensor broadcast_bytes(const Tensor& t, const Shape& shape) {
  size_t lead = 0;
  if (t.dim() == static_cast<int64_t>(shape.size()))
    while (lead < shape.size() && t.size(static_cast<int64_t>(lead)) == shape[lead]) ++lead;
  bool trailing_ones = t.dim() == static_cast<int64_t>(shape.size()) && lead < shape.size();
  int64_t inner = 1;
  for (size_t d = lead; trailing_ones && d < shape.size(); ++d) {
    trailing_ones = t.size(static_cast<int64_t>(d)) == 1;
    inner *= shape[d];
  }
  if (!trailing_ones) return expand_view(t, shape).contiguous();
  const Tensor values = t.contiguous();
  Tensor out = Tensor::uninitialized(t.dtype(), shape);
  const auto* v = static_cast<const uint8_t*>(values.raw_data());
  auto* o = static_cast<uint8_t*>(out.raw_data());
  for (int64_t i = 0; i < values.numel(); ++i) std::memset(o + i * inner, v[i], static_cast<size_t>(inner));
  return out;
}

// (a, b, a_scale, a_zero_point, b_scale, b_zero_point, out_scale, out_zero_point, quant_min, quant_max, dtype,
//  clamp_min, clamp_max)
template <bool kMultiply>
void quantized_binary_op(OpCall& c) {
  const DType dtype = *c.optional_dtype(10);
  if (dtype != DType::Int8 && dtype != DType::UInt8)
    fail(ErrorCode::BadInput, c.where(), "dtype must be int8 or uint8, got ", dtype_name(dtype));
  for (size_t i : {size_t(0), size_t(1)})
    if (c.tensor(i).dtype() != dtype)
      fail(ErrorCode::BadInput, c.where(), c.arg_name(i), " must hold ", dtype_name(dtype), " values, got ",
           dtype_name(c.tensor(i).dtype()));
  const Shape shape = broadcast_shapes(c.tensor(0).sizes(), c.tensor(1).sizes());
  const Tensor a = broadcast_bytes(c.tensor(0), shape);
  const Tensor b = broadcast_bytes(c.tensor(1), shape);
  QuantizedAddParams p;
  p.a_scale = static_cast<float>(c.double_arg(2));
  p.a_zero_point = static_cast<float>(c.int_arg(3));
  p.b_scale = static_cast<float>(c.double_arg(4));
  p.b_zero_point = static_cast<float>(c.int_arg(5));
  p.inv_out_scale = static_cast<float>(1.0 / c.double_arg(6));
  p.out_zero_point = static_cast<float>(c.int_arg(7));
  p.qmin = static_cast<float>(c.int_arg(8));
  p.qmax = static_cast<float>(c.int_arg(9));
  if (auto lo = c.optional_double(11)) p.lo = static_cast<float>(*lo);
  if (auto hi = c.optional_double(12)) p.hi = static_cast<float>(*hi);
  Tensor out = Tensor::uninitialized(dtype, shape);
  if (dtype == DType::Int8) combine_values<kMultiply, int8_t>(a, b, p, out);
  else combine_values<kMultiply, uint8_t>(a, b, p, out);
  c.push(out);
}

}  // namespace

void register_quantized_add_ops(OpTable& t) {
  const std::string arguments =
      "(Tensor a, Tensor b, float a_scale, int a_zero_point, float b_scale, int b_zero_point, float out_scale, "
      "int out_zero_point, int quant_min, int quant_max, ScalarType dtype, float? clamp_min=None, "
      "float? clamp_max=None) -> Tensor";
  t.add("pt2web::quantized_add" + arguments, quantized_binary_op<false>);
  t.add("pt2web::quantized_mul" + arguments, quantized_binary_op<true>);
}

}  // namespace pt2web::quantized
