// The complex operator folder: complex64/complex128 views and conversions
// (real, imag, view_as_real, view_as_complex, complex, polar), conjugation
// (conj, _conj, conj_physical, resolve_conj, resolve_neg), angle and isreal.
// pt2web has no conjugate or negative bits: conjugation always makes a new
// tensor, so resolve_conj/resolve_neg return their input.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_complex_ops (ops/families.h).
#pragma once

#include "ops/registry.h"
#include "tensor/tensor.h"

namespace pt2web {

void register_complex_views_ops(OpTable& t);  // complex_views.cpp
void register_complex_math_ops(OpTable& t);   // complex_math.cpp

// complex64 <-> float32, complex128 <-> float64 (torch's
// corresponding_real_dtype / corresponding_complex_dtype); other dtypes are
// returned unchanged.
DType complex_to_real_dtype(DType dtype);
DType real_to_complex_dtype(DType dtype);

// A float32/float64 view of a complex tensor's storage with a trailing
// dimension of 2 (real, imaginary): view_as_real.
Tensor complex_as_real_view(const Tensor& x);

// A new complex tensor equal to conj(x); x itself when x is real.
Tensor conjugate(const Tensor& x);

}  // namespace pt2web
