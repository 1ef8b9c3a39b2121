// Small helpers shared by operator families: dimension wrapping, output
// allocation and elementwise maps with broadcasting over strided inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_call.h"
#include "tensor/dispatch.h"
#include "tensor/strided_loop.h"
#include "tensor/tensor.h"
#include "util/error.h"

namespace pt2web {

// Wraps a possibly negative dim into [0, rank); rank 0 accepts -1 and 0.
int64_t wrap_dim(int64_t dim, int64_t rank, const char* op = "");

// Sorted, unique, wrapped dims; an empty list means all dims.
std::vector<int64_t> wrap_dims(const std::vector<int64_t>& dims, int64_t rank, const char* op = "");

// out = f(x) elementwise, computing in opmath of `compute` dtype, writing `out_dtype`.
// f takes and returns opmath_t<T> for the compute element type T.
template <typename F>
Tensor unary_map(const Tensor& x, DType compute, DType out_dtype, F&& f) {
  Tensor in = x.dtype() == compute ? x : x.to(compute);
  Tensor out = Tensor::empty(out_dtype, in.sizes());
  visit_dtype(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    visit_dtype(out_dtype, [&](auto out_tag) {
      using O = typename decltype(out_tag)::type;
      const T* src = in.data<T>();
      O* dst = out.data<O>();
      for_each_offsets<2>(in.sizes(), {&out.strides(), &in.strides()}, [&](const std::array<int64_t, 2>& o) {
        dst[o[0]] = convert_element<O>(f(static_cast<M>(src[o[1]])));
      });
    });
  });
  return out;
}

// out = f(a, b) with broadcasting; inputs are converted to `compute`.
template <typename F>
Tensor binary_map(const Tensor& a, const Tensor& b, DType compute, DType out_dtype, F&& f) {
  Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  Tensor ca = a.dtype() == compute ? a : a.to(compute);
  Tensor cb = b.dtype() == compute ? b : b.to(compute);
  Shape sa = broadcast_strides(ca, shape), sb = broadcast_strides(cb, shape);
  Tensor out = Tensor::empty(out_dtype, shape);
  visit_dtype(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    visit_dtype(out_dtype, [&](auto out_tag) {
      using O = typename decltype(out_tag)::type;
      const T* pa = ca.data<T>();
      const T* pb = cb.data<T>();
      O* dst = out.data<O>();
      for_each_offsets<3>(shape, {&out.strides(), &sa, &sb}, [&](const std::array<int64_t, 3>& o) {
        dst[o[0]] = convert_element<O>(f(static_cast<M>(pa[o[1]]), static_cast<M>(pb[o[2]])));
      });
    });
  });
  return out;
}

// A 0-dim tensor holding a Scalar argument in dtype.
Tensor scalar_tensor(const Scalar& s, DType dtype);

// Writes `value` into `target` in place (broadcast and dtype conversion), for
// the in-place variants of ops (add_, relu_, ...). Returns target.
Tensor assign_in_place(const Tensor& target, const Tensor& value);

}  // namespace pt2web
