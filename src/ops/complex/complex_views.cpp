// Views between complex tensors and their float parts (real, imag,
// view_as_real, view_as_complex: they share storage, as in ATen), and
// conjugation, which pt2web does eagerly (conj and _conj make a conjugated
// copy of a complex tensor; resolve_conj / resolve_neg have nothing to
// resolve).
#include "ops/complex/complex.h"

#include <complex>

#include "tensor/complex_dispatch.h"
#include "ops/op_call.h"

namespace pt2web {

DType complex_to_real_dtype(DType dtype) {
  if (dtype == DType::Complex64) return DType::Float32;
  if (dtype == DType::Complex128) return DType::Float64;
  return dtype;
}

DType real_to_complex_dtype(DType dtype) {
  if (dtype == DType::Float32) return DType::Complex64;
  if (dtype == DType::Float64) return DType::Complex128;
  return dtype;
}

Tensor complex_as_real_view(const Tensor& x) {
  Shape sizes = x.sizes(), strides = x.strides();
  for (int64_t& s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return Tensor(x.storage(), complex_to_real_dtype(x.dtype()), sizes, strides, x.storage_offset() * 2);
}

Tensor conjugate(const Tensor& x) {
  if (!is_complex(x.dtype())) return x;
  Tensor out = x.clone();
  Tensor parts = complex_as_real_view(out);
  visit_floating_dtype(parts.dtype(), [&](auto tag) {
    using V = typename decltype(tag)::type;
    V* data = parts.data<V>();
    for (int64_t i = 0; i < out.numel(); ++i) data[2 * i + 1] = -data[2 * i + 1];
  });
  return out;
}

namespace {

// One part (0 real, 1 imaginary) of a complex tensor as a float view.
Tensor part_view(const Tensor& x, int64_t part) {
  Shape strides = x.strides();
  for (int64_t& s : strides) s *= 2;
  return Tensor(x.storage(), complex_to_real_dtype(x.dtype()), x.sizes(), strides,
                x.storage_offset() * 2 + part);
}

void real_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  c.push(is_complex(x.dtype()) ? part_view(x, 0) : x);
}

void imag_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (!is_complex(x.dtype()))
    fail(ErrorCode::BadInput, c.where(), "imag is not implemented for tensors with non-complex dtypes.");
  c.push(part_view(x, 1));
}

void view_as_real_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (!is_complex(x.dtype()))
    fail(ErrorCode::BadInput, c.where(), "view_as_real is only supported for complex tensors, got ",
         dtype_name(x.dtype()));
  c.push(complex_as_real_view(x));
}

void view_as_complex_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
    fail(is_floating(x.dtype()) ? ErrorCode::Unsupported : ErrorCode::BadInput, c.where(),
         "view_as_complex is only supported for float and double tensors, but got a tensor of scalar type: ",
         dtype_name(x.dtype()));
  if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "Input tensor must have one or more dimensions");
  if (x.sizes().back() != 2) fail(ErrorCode::BadInput, c.where(), "Tensor must have a last dimension of size 2");
  if (x.strides().back() != 1)
    fail(ErrorCode::BadInput, c.where(), "Tensor must have a last dimension with stride 1");
  Shape sizes(x.sizes().begin(), x.sizes().end() - 1), strides(x.strides().begin(), x.strides().end() - 1);
  for (int64_t& s : strides) {
    if (s % 2 != 0)
      fail(ErrorCode::BadInput, c.where(), "Tensor must have a stride divisible by 2 for all but last dimension");
    s /= 2;
  }
  if (x.storage_offset() % 2 != 0)
    fail(ErrorCode::BadInput, c.where(), "Tensor must have a storage_offset divisible by 2");
  c.push(Tensor(x.storage(), real_to_complex_dtype(x.dtype()), sizes, strides, x.storage_offset() / 2));
}

void conj_op(OpCall& c) { c.push(conjugate(c.tensor(0))); }
void identity_op(OpCall& c) { c.push(c.tensor(0)); }

}  // namespace

void register_complex_views_ops(OpTable& t) {
  t.add("aten::real(Tensor(a) self) -> Tensor(a)", real_op);
  t.add("aten::imag(Tensor(a) self) -> Tensor(a)", imag_op);
  t.add("aten::view_as_real(Tensor(a) self) -> Tensor(a)", view_as_real_op);
  t.add("aten::view_as_complex(Tensor(a) self) -> Tensor(a)", view_as_complex_op);
  t.add("aten::conj(Tensor(a) self) -> Tensor(a)", conj_op);
  t.add("aten::_conj(Tensor(a) self) -> Tensor(a)", conj_op);
  t.add("aten::conj_physical(Tensor self) -> Tensor", conj_op);
  t.add("aten::_conj_physical(Tensor self) -> Tensor", conj_op);
  t.add("aten::resolve_conj(Tensor(a) self) -> Tensor(a)", identity_op);
  t.add("aten::resolve_neg(Tensor(a) self) -> Tensor(a)", identity_op);
}

}  // namespace pt2web
