// Elementwise arithmetic on complex tensors, called by the pointwise
// operators (add, sub, mul, div, abs, neg) when their result type is complex64 or
// complex128: those operators keep ATen's promotion and argument checks and
// hand the complex case here. Computed in the result dtype (complex64 in
// std::complex<float>, as ATen's CPU kernels do).
//
// Errors: Error(Internal) when `dtype` is not complex.
#pragma once

#include <complex>

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

}  // namespace pt2web
