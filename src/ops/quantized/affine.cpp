#include "ops/quantized/affine.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/int8/quantize.h"
#include "tensor/dispatch.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

// The quantized integer types torch's decomposed ops accept, with their range.
bool quant_bounds(DType dtype, int64_t* lo, int64_t* hi) {
  switch (dtype) {
    case DType::UInt8: *lo = 0; *hi = 255; return true;
    case DType::Int8: *lo = -128; *hi = 127; return true;
    case DType::UInt16: *lo = 0; *hi = 65535; return true;
    case DType::Int16: *lo = -32768; *hi = 32767; return true;
    case DType::Int32: *lo = std::numeric_limits<int32_t>::min(); *hi = std::numeric_limits<int32_t>::max(); return true;
    default: return false;
  }
}

// Visits the integer types a quantized tensor can hold.
template <typename F>
void visit_quant_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::UInt8: f(TypeTag<uint8_t>{}); break;
    case DType::Int8: f(TypeTag<int8_t>{}); break;
    case DType::UInt16: f(TypeTag<uint16_t>{}); break;
    case DType::Int16: f(TypeTag<int16_t>{}); break;
    case DType::Int32: f(TypeTag<int32_t>{}); break;
    case DType::Int64: f(TypeTag<int64_t>{}); break;
    default: fail(ErrorCode::Unsupported, "quantized values of dtype ", dtype_name(dtype), " are not supported");
  }
}

template <typename T>
DType dtype_of_compute() {
  return std::is_same<T, float>::value ? DType::Float32 : DType::Float64;
}

template <typename T>
std::vector<T> as_compute(const std::vector<double>& values) {
  return std::vector<T>(values.begin(), values.end());
}

// 1 / s in the scales' own dtype, then read in T.
template <typename T>
std::vector<T> reciprocals(const Tensor& scales) {
  std::vector<T> out;
  for (double s : values_as_double(scales))
    out.push_back(scales.dtype() == DType::Float32 ? static_cast<T>(1.0f / static_cast<float>(s)) : static_cast<T>(1.0 / s));
  return out;
}

template <typename T>
Tensor run_quantize(const Tensor& x, GroupLayout layout, const Tensor& scales, const Tensor& zero_points,
                    RoundOrder order, int64_t qmin, int64_t qmax, DType dtype) {
  Tensor xt = x.to(std::is_same<T, float>::value ? DType::Float32 : DType::Float64);
  return quantize_affine<T>(xt.data<T>(), x.sizes(), layout, reciprocals<T>(scales),
                            as_compute<T>(values_as_double(zero_points)), order, qmin, qmax, dtype);
}


}  // namespace

void check_quant_range(const OpCall& c, int64_t qmin, int64_t qmax, DType dtype) {
  int64_t lo = 0, hi = 0;
  if (dtype == DType::Float8E4M3FN || dtype == DType::Float8E5M2)
    fail(ErrorCode::Unsupported, c.where(), "float8 quantization is not supported");
  if (!quant_bounds(dtype, &lo, &hi)) fail(ErrorCode::BadInput, c.where(), "Unsupported dtype: ", dtype_name(dtype));
  if (qmin < lo)
    fail(ErrorCode::BadInput, c.where(), "quant_min out of bound for dtype, quant_min_lower_bound: ", lo,
         " quant_min: ", qmin);
  if (qmax > hi)
    fail(ErrorCode::BadInput, c.where(), "quant_max out of bound for dtype, quant_max_upper_bound: ", hi,
         " quant_max: ", qmax);
}

void check_range_holds_zero(const OpCall& c, int64_t qmin, int64_t qmax) {
  if (!(qmin <= 0 && qmax >= 0))
    fail(ErrorCode::BadInput, c.where(), "quantization range should contain 0 (quant_min ", qmin, ", quant_max ",
         qmax, ")");
  if (!(qmin < qmax))
    fail(ErrorCode::BadInput, c.where(), "qmin must be strictly less than qmax (", qmin, " vs ", qmax, ")");
}

Tensor float32_input(const OpCall& c, const Tensor& input) {
  if (input.dtype() == DType::Float16 || input.dtype() == DType::BFloat16) return input.to(DType::Float32);
  if (input.dtype() != DType::Float32)
    fail(ErrorCode::BadInput, c.where(), "Expecting input to have dtype torch.float32, but got dtype: torch.",
         dtype_name(input.dtype()));
  return input.contiguous();
}

void check_compute_type(const OpCall& c, DType compute) {
  if (compute != DType::Float32 && compute != DType::Float64)
    fail(ErrorCode::Unsupported, c.where(), "quantization parameters of dtype ", dtype_name(compute),
         " are not supported (float32 and float64 are)");
}

template <typename T>
Tensor quantize_affine(const T* x, const Shape& sizes, GroupLayout layout, const std::vector<T>& inv_scale,
                       const std::vector<T>& zero_point, RoundOrder order, int64_t qmin, int64_t qmax, DType dtype) {
  Tensor out = Tensor::uninitialized(dtype, sizes);
  const int64_t n = out.numel();
  // clamp's bounds are numbers rounded to the compute type.
  const T lo = static_cast<T>(qmin), hi = static_cast<T>(qmax);
  if (std::is_same<T, float>::value && layout.groups == 1 && order == RoundOrder::BeforeZeroPoint &&
      (dtype == DType::Int8 || dtype == DType::UInt8)) {
    // Per tensor into 8 bits, the dynamic-quantization path: the SIMD kernel
    // computes the same float32 operations.
    const PerTensorQuantization p{static_cast<float>(inv_scale[0]), static_cast<float>(zero_point[0]),
                                  static_cast<float>(lo), static_cast<float>(hi)};
    const float* xf = reinterpret_cast<const float*>(x);
    if (dtype == DType::Int8) quantize_f32_s8(xf, n, p, out.data<int8_t>());
    else quantize_f32_u8(xf, n, p, out.data<uint8_t>());
    return out;
  }
  visit_quant_dtype(dtype, [&](auto tag) {
    using Q = typename decltype(tag)::type;
    Q* q = out.data<Q>();
    const bool one_group = layout.groups == 1;  // per tensor: no index arithmetic per element
    for (int64_t i = 0; i < n; ++i) {
      const int64_t g = one_group ? 0 : (i / layout.inner) % layout.groups;
      T v = order == RoundOrder::BeforeZeroPoint ? std::nearbyint(x[i] * inv_scale[g]) + zero_point[g]
                                                 : std::nearbyint(x[i] * inv_scale[g] + zero_point[g]);
      v = v < lo ? lo : (v > hi ? hi : v);  // NaN stays NaN (and converts to 0)
      q[i] = convert_element<Q>(v);
    }
  });
  return out;
}

template <typename T>
Tensor dequantize_affine(const Tensor& q_in, GroupLayout layout, const ZeroPoints& zp, const std::vector<T>& scale) {
  Tensor q = q_in.contiguous();
  Tensor out = Tensor::uninitialized(dtype_of_compute<T>(), q.sizes());
  const int64_t n = q.numel();
  T* y = out.data<T>();
  visit_quant_dtype(q.dtype(), [&](auto tag) {
    using Q = typename decltype(tag)::type;
    const Q* v = q.data<Q>();
    const bool one_group = layout.groups == 1;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t g = one_group ? 0 : (i / layout.inner) % layout.groups;
      T shifted;
      if (!zp.present) shifted = static_cast<T>(v[i]);
      else if (zp.floating) shifted = static_cast<T>(v[i]) - static_cast<T>(zp.reals[g]);
      else shifted = static_cast<T>(static_cast<int64_t>(v[i]) - zp.ints[g]);
      y[i] = shifted * scale[g];
    }
  });
  return out;
}

template Tensor quantize_affine<float>(const float*, const Shape&, GroupLayout, const std::vector<float>&,
                                       const std::vector<float>&, RoundOrder, int64_t, int64_t, DType);
template Tensor quantize_affine<double>(const double*, const Shape&, GroupLayout, const std::vector<double>&,
                                        const std::vector<double>&, RoundOrder, int64_t, int64_t, DType);
template Tensor dequantize_affine<float>(const Tensor&, GroupLayout, const ZeroPoints&, const std::vector<float>&);
template Tensor dequantize_affine<double>(const Tensor&, GroupLayout, const ZeroPoints&, const std::vector<double>&);

std::vector<double> values_as_double(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = t.item_as_double(i);
  return out;
}

std::vector<int64_t> values_as_int(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = t.item_as_int(i);
  return out;
}

ZeroPoints zero_points_of(const Tensor& t) {
  ZeroPoints zp;
  if (!t.defined()) {
    zp.present = false;
    return zp;
  }
  zp.floating = is_floating(t.dtype());
  if (zp.floating) zp.reals = values_as_double(t);
  else zp.ints = values_as_int(t);
  return zp;
}

Tensor quantize_groups(const OpCall& c, const Tensor& x, GroupLayout layout, const Tensor& scales,
                       const Tensor& zero_points, RoundOrder order, int64_t qmin, int64_t qmax, DType dtype) {
  const DType compute = promote_types(promote_types(x.dtype(), scales.dtype()), zero_points.dtype());
  check_compute_type(c, compute);
  return compute == DType::Float32 ? run_quantize<float>(x, layout, scales, zero_points, order, qmin, qmax, dtype)
                                   : run_quantize<double>(x, layout, scales, zero_points, order, qmin, qmax, dtype);
}

Tensor dequantize_groups(const OpCall& c, const Tensor& q, GroupLayout layout, const Tensor& scales,
                         const Tensor& zero_points) {
  DType compute = zero_points.defined() ? promote_types(q.dtype(), zero_points.dtype()) : q.dtype();
  compute = promote_types(compute, scales.dtype());
  check_compute_type(c, compute);
  const ZeroPoints zp = zero_points_of(zero_points);
  const std::vector<double> s = values_as_double(scales);
  return compute == DType::Float32 ? dequantize_affine<float>(q, layout, zp, as_compute<float>(s))
                                   : dequantize_affine<double>(q, layout, zp, as_compute<double>(s));
}

}  // namespace pt2web::quantized
