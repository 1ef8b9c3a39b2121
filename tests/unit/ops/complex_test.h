// Complex tensors for the operator unit tests (complex/ and spectral/):
// built from and checked through interleaved (real, imaginary) values, on
// top of the helpers of op_test.h.
#pragma once

#include "ops/op_test.h"

namespace pt2web::op_test {

inline DType parts_dtype(DType complex_dtype) {
  return complex_dtype == DType::Complex64 ? DType::Float32 : DType::Float64;
}

// A complex64/complex128 tensor of `shape` from interleaved values.
inline Tensor make_complex(DType dtype, const Shape& shape, const std::vector<double>& interleaved) {
  Shape parts_shape = shape;
  parts_shape.push_back(2);
  Tensor parts = make(parts_shape, interleaved, parts_dtype(dtype));
  return Tensor(parts.storage(), dtype, shape, contiguous_strides(shape), 0);
}

// t has `dtype`, `shape` and, part by part, the interleaved values within eps.
inline void check_complex(const Tensor& t, DType dtype, const Shape& shape, const std::vector<double>& interleaved,
                          double eps = 1e-6) {
  REQUIRE(t.dtype() == dtype);
  REQUIRE(t.sizes() == shape);
  Tensor c = t.contiguous();
  Shape parts_shape = shape;
  parts_shape.push_back(2);
  Tensor parts(c.storage(), parts_dtype(dtype), parts_shape, contiguous_strides(parts_shape), c.storage_offset() * 2);
  check_values(parts, parts_shape, interleaved, eps);
}

}  // namespace pt2web::op_test
