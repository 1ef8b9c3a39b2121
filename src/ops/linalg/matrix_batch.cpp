#include "ops/linalg/matrix_batch.h"

#include "kernels/linalg/triangular_solve.h"
#include "ops/views.h"
#include "tensor/strided_loop.h"

namespace pt2web {

void check_matrix_input(const OpCall& c, const Tensor& t, const char* op, bool square) {
  if (t.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), op, ": The input tensor A must have at least 2 dimensions.");
  if (square && t.size(-1) != t.size(-2))
    fail(ErrorCode::BadInput, c.where(), op, ": A must be batches of square matrices, but they are ", t.size(-2),
         " by ", t.size(-1), " matrices");
  const DType d = t.dtype();
  if (d == DType::Float32 || d == DType::Float64) return;
  if (d == DType::Float16 || d == DType::BFloat16 || d == DType::Complex64 || d == DType::Complex128)
    fail(ErrorCode::Unsupported, c.where(), op, ": inputs of dtype ", dtype_name(d),
         " are not supported (torch's CPU linear algebra takes float32 and float64)");
  fail(ErrorCode::BadInput, c.where(), op, ": Expected a floating point or complex tensor as input. Got ",
       dtype_name(d));
}

Shape batch_shape(const Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end() - 2); }

Shape batched(const Shape& batch, std::initializer_list<int64_t> tail) {
  Shape out = batch;
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

std::pair<Tensor, Tensor> broadcast_batches(const Tensor& a, const Tensor& b) {
  const Shape batch = broadcast_shapes(batch_shape(a), batch_shape(b));
  const Tensor ea = expand_view(a, batched(batch, {a.size(-2), a.size(-1)}));
  const Tensor eb = expand_view(b, batched(batch, {b.size(-2), b.size(-1)}));
  return {ea.clone(), eb.clone()};
}

Tensor transposed_copy(const Tensor& t) { return transpose_view(t, -2, -1).clone(); }

Tensor int32_zeros(const Shape& shape) { return Tensor::empty(DType::Int32, shape); }

Tensor identity_matrices(DType dtype, const Shape& batch, int64_t n) {
  Tensor eye = Tensor::empty(dtype, batched(batch, {n, n}));
  dispatch_linalg(dtype, [&](auto zero) {
    using T = decltype(zero);
    T* data = eye.data<T>();
    for (int64_t b = 0; b < shape_numel(batch); ++b)
      for (int64_t i = 0; i < n; ++i) data[(b * n + i) * n + i] = T(1);
  });
  return eye;
}

void solve_triangular_in_place(const Tensor& a, const Tensor& x, bool upper, bool unit, bool transpose) {
  const int64_t n = a.size(-1), nrhs = x.size(-1), count = shape_numel(batch_shape(a));
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < count; ++b)
      linalg::triangular_solve(a.data<T>() + b * n * n, n, x.data<T>() + b * n * nrhs, nrhs, upper, unit, transpose);
  });
}

}  // namespace pt2web
