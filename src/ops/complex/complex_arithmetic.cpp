#include "ops/complex/complex_arithmetic.h"

#include <cmath>

#include "ops/complex/complex.h"
#include "ops/op_utils.h"
#include "tensor/complex_dispatch.h"
#include "tensor/strided_loop.h"

namespace pt2web {

namespace {

// x converted to dtype and broadcast to shape, contiguous.
Tensor materialize(const Tensor& x, DType dtype, const Shape& shape) {
  if (x.dtype() == dtype && x.sizes() == shape && x.is_contiguous()) return x;
  Tensor out = Tensor::uninitialized(dtype, shape);
  out.copy_from(x);
  return out;
}

// Elementwise f over contiguous inputs of the same shape into a new tensor of out_dtype.
template <typename F>
Tensor map_complex(DType in_dtype, DType out_dtype, const Shape& shape, F&& f) {
  Tensor out = Tensor::uninitialized(out_dtype, shape);
  visit_complex_dtype(in_dtype, [&](auto tag) { f(tag, out); });
  return out;
}

}  // namespace

Tensor complex_binary(ComplexBinary op, const Tensor& a, const Tensor& b, DType dtype, std::complex<double> alpha) {
  PT2WEB_CHECK(is_complex(dtype), "complex_binary on ", dtype_name(dtype));
  Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  Tensor x = materialize(a, dtype, shape), y = materialize(b, dtype, shape);
  return map_complex(dtype, dtype, shape, [&](auto tag, Tensor& out) {
    using C = typename decltype(tag)::type;
    const C* u = x.data<C>();
    const C* v = y.data<C>();
    C* o = out.data<C>();
    const C scale = convert_any<C>(alpha);
    const bool unit = alpha == std::complex<double>(1.0, 0.0);
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) {
      switch (op) {
        case ComplexBinary::Add: o[i] = u[i] + (unit ? v[i] : v[i] * scale); break;
        case ComplexBinary::Sub: o[i] = u[i] - (unit ? v[i] : v[i] * scale); break;
        case ComplexBinary::Mul: o[i] = u[i] * v[i]; break;
        case ComplexBinary::Div: o[i] = u[i] / v[i]; break;
      }
    }
  });
}

Tensor complex_abs(const Tensor& x) {
  Tensor in = materialize(x, x.dtype(), x.sizes());
  return map_complex(x.dtype(), complex_to_real_dtype(x.dtype()), x.sizes(), [&](auto tag, Tensor& out) {
    using C = typename decltype(tag)::type;
    using V = typename C::value_type;
    const C* u = in.data<C>();
    V* o = out.data<V>();
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = std::hypot(u[i].real(), u[i].imag());
  });
}

Tensor complex_neg(const Tensor& x) {
  Tensor in = materialize(x, x.dtype(), x.sizes());
  return map_complex(x.dtype(), x.dtype(), x.sizes(), [&](auto tag, Tensor& out) {
    using C = typename decltype(tag)::type;
    const C* u = in.data<C>();
    C* o = out.data<C>();
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = -u[i];
  });
}

Tensor reduce_complex_parts(const Tensor& x, const std::vector<int64_t>& dims, const PartsReduction& reduce) {
  PT2WEB_CHECK(is_complex(x.dtype()), "reduce_complex_parts on ", dtype_name(x.dtype()));
  if (x.dim() == 0) return x.clone();
  std::vector<int64_t> wrapped;
  if (dims.empty()) {
    for (int64_t d = 0; d < x.dim(); ++d) wrapped.push_back(d);
  } else {
    for (int64_t d : dims) wrapped.push_back(wrap_dim(d, x.dim()));
  }
  Tensor parts = reduce(complex_as_real_view(x), wrapped).contiguous();
  Shape sizes(parts.sizes().begin(), parts.sizes().end() - 1);
  return Tensor(parts.storage(), real_to_complex_dtype(parts.dtype()), sizes, contiguous_strides(sizes),
                parts.storage_offset() / 2);
}

}  // namespace pt2web
