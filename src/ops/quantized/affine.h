// Shared arithmetic of the quantized_decomposed operators (PT2E quantization):
// checks of the integer range an operator is asked for, and the affine maps
//   quantize:   q = clamp(round(x * inv_scale) + zero_point, qmin, qmax)
//   dequantize: x = (q - zero_point) * scale
// applied with one (scale, zero_point) pair per group of `inner` consecutive
// elements, `groups` pairs repeating (per tensor: 1 group; per channel along
// an axis: the axis' size, inner = the sizes after it; per token: one group
// per row of the last dim).
//
// The compute type T (float or double) is the one torch's decomposition
// reaches through type promotion; callers pick it. round() is
// round-half-to-even (std::nearbyint), as torch.round.
//
// Errors: Error(BadInput) naming the operator for a quant range outside the
// dtype's or an input of the wrong dtype, Error(Unsupported) for dtypes torch
// accepts that pt2web does not compute in (float8, float16 outputs).
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_call.h"
#include "tensor/tensor.h"

namespace pt2web::quantized {

// torch's _quant_min_max_bounds_check: the dtype is an integer quantized type
// (uint8, int8, uint16, int16, int32) and [qmin, qmax] lies in its range.
void check_quant_range(const OpCall& c, int64_t qmin, int64_t qmax, DType dtype);

// validate_qmin_qmax of choose_qparams: qmin <= 0 <= qmax and qmin < qmax.
void check_range_holds_zero(const OpCall& c, int64_t qmin, int64_t qmax);

// The float input of a quantize op: float16/bfloat16 upcast to float32 (as
// torch does), then float32 required. Contiguous.
Tensor float32_input(const OpCall& c, const Tensor& input);

// How quantize rounds: per tensor / per channel round before adding the zero
// point; per token (torch's quantize_per_token) adds it first.
enum class RoundOrder { BeforeZeroPoint, AfterZeroPoint };

struct GroupLayout {
  int64_t groups = 1;  // distinct parameter pairs
  int64_t inner = 1;   // consecutive elements sharing one pair
};

// Quantizes contiguous float values `x` (already in T) into a new contiguous
// tensor of `dtype` with x's sizes. inv_scale and zero_point hold one value per group.
template <typename T>
Tensor quantize_affine(const T* x, const Shape& sizes, GroupLayout layout, const std::vector<T>& inv_scale,
                       const std::vector<T>& zero_point, RoundOrder order, int64_t qmin, int64_t qmax, DType dtype);

// Dequantizes an integer tensor into a new contiguous tensor of T's dtype.
// Integer zero points subtract exactly (in int64, as torch's integer
// subtraction) before the conversion to T; floating zero points subtract in T.
struct ZeroPoints {
  std::vector<int64_t> ints;  // used when !floating
  std::vector<double> reals;  // used when floating (read in T)
  bool floating = false;
  bool present = true;  // false: no zero point (x * scale)
};
template <typename T>
Tensor dequantize_affine(const Tensor& q, GroupLayout layout, const ZeroPoints& zero_point,
                         const std::vector<T>& scale);

// The values of a 1-element tensor, or of a parameter tensor, as a vector.
std::vector<double> values_as_double(const Tensor& t);
std::vector<int64_t> values_as_int(const Tensor& t);
ZeroPoints zero_points_of(const Tensor& t);  // undefined tensor: not present

// Quantizes x with tensor parameters (scales, zero_points: one value per
// group), computing in the promoted dtype of x, scales and zero points (the
// reciprocal of each scale taken in the scales' dtype, as `1.0 / scales`).
Tensor quantize_groups(const OpCall& c, const Tensor& x, GroupLayout layout, const Tensor& scales,
                       const Tensor& zero_points, RoundOrder order, int64_t qmin, int64_t qmax, DType dtype);

// (q - zero_points) * scales in the promoted dtype of the three (zero_points
// may be undefined: q * scales). The result has that dtype.
Tensor dequantize_groups(const OpCall& c, const Tensor& q, GroupLayout layout, const Tensor& scales,
                         const Tensor& zero_points);

// The float compute type T a kernel runs in: Float32 or Float64, else Unsupported.
void check_compute_type(const OpCall& c, DType compute);

}  // namespace pt2web::quantized
