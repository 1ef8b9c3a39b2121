// angle, isreal, and the constructors of complex tensors from float parts:
// complex(real, imag) and polar(abs, angle).
#include <cmath>

#include "ops/complex/complex.h"
#include "ops/op_call.h"
#include "ops/type_promotion.h"
#include "tensor/complex_dispatch.h"
#include "tensor/strided_loop.h"

namespace pt2web {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Elementwise f(element) -> Out over any strided x into a new contiguous tensor.
template <typename In, typename Out, typename F>
Tensor map_one(const Tensor& x, DType out_dtype, F&& f) {
  Tensor in = x.contiguous();
  Tensor out = Tensor::uninitialized(out_dtype, x.sizes());
  const In* u = in.data<In>();
  Out* o = out.data<Out>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = f(u[i]);
  return out;
}

// angle: arg(z) for complex; for real inputs 0, pi for negatives, NaN kept
// (integers and bool give float32, as ATen's angle does).
void angle_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (is_complex(x.dtype())) {
    visit_complex_dtype(x.dtype(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      using V = typename C::value_type;
      c.push(map_one<C, V>(x, complex_to_real_dtype(x.dtype()), [](C z) { return std::atan2(z.imag(), z.real()); }));
    });
    return;
  }
  DType out = to_floating(x.dtype());
  Tensor in = x.to(out);
  visit_floating_dtype(out, [&](auto tag) {
    using T = typename decltype(tag)::type;
    c.push(map_one<T, T>(in, out, [](T v) {
      float f = static_cast<float>(v);
      if (f != f) return v;
      return convert_element<T>(f < 0 ? kPi : 0.0);
    }));
  });
}

void isreal_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (!is_complex(x.dtype())) {
    Tensor out = Tensor::empty(DType::Bool, x.sizes());
    out.copy_from(Tensor::scalar(DType::Bool, 1.0));
    c.push(out);
    return;
  }
  visit_complex_dtype(x.dtype(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    c.push(map_one<C, bool>(x, DType::Bool, [](C z) { return z.imag() == 0; }));
  });
}

// ATen's complex_check_dtype for complex() and polar().
void check_part_dtypes(const OpCall& c, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    fail(ErrorCode::BadInput, c.where(), "Expected object of scalar type ", dtype_name(a.dtype()),
         " but got scalar type ", dtype_name(b.dtype()), " for second argument");
  if (a.dtype() == DType::Float16)
    fail(ErrorCode::Unsupported, c.where(), "complex32 (complex half) results are not supported");
  if (a.dtype() != DType::Float32 && a.dtype() != DType::Float64)
    fail(ErrorCode::BadInput, c.where(), "Expected both inputs to be Half, Float or Double tensors but got ",
         dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
}

// A complex tensor whose element i is make(a_i, b_i), a and b broadcast.
template <typename Make>
void push_from_parts(OpCall& c, Make make) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  check_part_dtypes(c, a, b);
  Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  Tensor x = Tensor::uninitialized(a.dtype(), shape), y = Tensor::uninitialized(a.dtype(), shape);
  x.copy_from(a);
  y.copy_from(b);
  Tensor out = Tensor::uninitialized(real_to_complex_dtype(a.dtype()), shape);
  visit_complex_dtype(out.dtype(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    using V = typename C::value_type;
    const V* u = x.data<V>();
    const V* v = y.data<V>();
    C* o = out.data<C>();
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = make(u[i], v[i]);
  });
  c.push(out);
}

void complex_op(OpCall& c) {
  push_from_parts(c, [](auto re, auto im) { return std::complex<decltype(re)>(re, im); });
}

void polar_op(OpCall& c) {
  push_from_parts(c, [](auto r, auto theta) {
    return std::complex<decltype(r)>(r * std::cos(theta), r * std::sin(theta));
  });
}

}  // namespace

void register_complex_math_ops(OpTable& t) {
  t.add("aten::angle(Tensor self) -> Tensor", angle_op);
  t.add("aten::isreal(Tensor self) -> Tensor", isreal_op);
  t.add("aten::complex(Tensor real, Tensor imag) -> Tensor", complex_op);
  t.add("aten::polar(Tensor abs, Tensor angle) -> Tensor", polar_op);
}

}  // namespace pt2web
