// Arithmetic on complex tensors, called by the pointwise operators (add,
// sub, mul, div, abs, neg) when their result type is complex64 or complex128,
// and by sum and mean for complex inputs: those operators keep ATen's
// promotion and argument checks and hand the complex case here. Computed in the result dtype (complex64 in
// std::complex<float>, as ATen's CPU kernels do).
//
// Errors: Error(Internal) when `dtype` is not complex.
#pragma once

#include <complex>
#include <functional>
#include <vector>

#include "tensor/tensor.h"

namespace pt2web {

enum class ComplexBinary { Add, Sub, Mul, Div };

// a op (alpha * b) for Add/Sub, a op b otherwise, broadcast; a and b of any
// dtype are converted to `dtype` first.
Tensor complex_binary(ComplexBinary op, const Tensor& a, const Tensor& b, DType dtype,
                      std::complex<double> alpha = {1.0, 0.0});

// |x| (the hypotenuse of the parts) as float32/float64.
Tensor complex_abs(const Tensor& x);

// -x, a new complex tensor.
Tensor complex_neg(const Tensor& x);

// A reduction that acts on real and imaginary parts alike (sum, mean):
// `reduce(parts, dims)` runs the real operator on the float view of x
// (view_as_real) over `dims` (x's dims, wrapped; empty means all), and its
// result is viewed as complex again.
using PartsReduction = std::function<Tensor(const Tensor& parts, const std::vector<int64_t>& dims)>;
Tensor reduce_complex_parts(const Tensor& x, const std::vector<int64_t>& dims, const PartsReduction& reduce);

}  // namespace pt2web
