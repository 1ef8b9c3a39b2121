// What the factorization and solver operators share: input checks with
// torch's messages, batch shapes, the float32/float64 dispatch of the
// kernels in kernels/linalg, and the per-matrix error reports of the `_ex`
// info tensors. Matrices are handed to kernels as fresh contiguous row-major
// copies, one per batch element at `data + b * rows * cols`.
//
// Errors: Error(BadInput) for tensors of fewer than two dims, non-square
// matrices where squares are needed, non-floating dtypes and mismatched
// shapes; Error(Unsupported) for float16/bfloat16/complex inputs, which
// torch's CPU linear algebra does not take either.
#pragma once

#include <string>
#include <utility>

#include "ops/op_call.h"
#include "util/error.h"

namespace pt2web {

// `t` is a (batch of) matrices of a dtype the kernels take; with `square`,
// of square ones. `op` is torch's name ("linalg.inv").
void check_matrix_input(const OpCall& c, const Tensor& t, const char* op, bool square);

// The sizes before the last two.
Shape batch_shape(const Tensor& t);
// batch + {rows, cols}, or batch + {length} (tail of any length).
Shape batched(const Shape& batch, std::initializer_list<int64_t> tail);

// Both operands brought to one broadcast batch shape (their matrix dims
// kept): contiguous copies.
std::pair<Tensor, Tensor> broadcast_batches(const Tensor& a, const Tensor& b);

// The matrix transpose of the last two dims, as a contiguous copy.
Tensor transposed_copy(const Tensor& t);

// A int32 tensor of `shape` holding zeros (info and pivot outputs).
Tensor int32_zeros(const Shape& shape);

// batch + {n, n} identity matrices of a float dtype.
Tensor identity_matrices(DType dtype, const Shape& batch, int64_t n);

// x = op(A)^-1 x for each triangular A of the contiguous `a` and matrix of
// the contiguous `x` (one batch shape), through kernels/linalg/triangular_solve.
void solve_triangular_in_place(const Tensor& a, const Tensor& x, bool upper, bool unit, bool transpose);

// Calls f(T{}) with T the C++ type of a float32 / float64 tensor.
template <class F>
void dispatch_linalg(DType dtype, F&& f) {
  if (dtype == DType::Float64)
    f(double{});
  else
    f(float{});
}

// Throws torch's error for the first nonzero entry of `info` (an int32
// tensor over the batch): `message(code)` words the matrix's failure and a
// batch of several gets torch's "(Batch element i): " prefix.
template <class Message>
void throw_on_info(const OpCall& c, const Tensor& info, const char* op, Message&& message) {
  const int32_t* codes = info.contiguous().data<int32_t>();
  for (int64_t b = 0; b < info.numel(); ++b) {
    if (codes[b] == 0) continue;
    const std::string prefix = info.dim() > 0 ? "(Batch element " + std::to_string(b) + "): " : "";
    fail(ErrorCode::BadInput, c.where(), op, ": ", prefix, message(codes[b]));
  }
}

}  // namespace pt2web
