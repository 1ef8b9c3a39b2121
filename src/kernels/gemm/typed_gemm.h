// Matrix-product helpers shared by the attention, recurrent and einsum
// operators. They work on contiguous row-major buffers in a compute type:
// float32 goes through kernels/gemm, float64 and int64 through a plain loop.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/gemm/gemm.h"
#include "tensor/dispatch.h"
#include "tensor/tensor.h"

namespace pt2web {
namespace attention_family {

// The type sums are carried in: integers use their unsigned twin so that
// overflow wraps (as ATen's kernels do) without undefined behaviour.
template <typename T, bool = std::is_integral<T>::value>
struct WrapAccumulator {
  using type = T;
};
template <typename T>
struct WrapAccumulator<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <typename T>
using wrap_acc_t = typename WrapAccumulator<T>::type;

// C[M,N] = A[M,K] * B[K,N], or C += A*B when accumulate. lda/ldb/ldc are row strides.
template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t lda, const T* B, int64_t ldb, T* C,
          int64_t ldc, bool accumulate) {
  if constexpr (std::is_same<T, float>::value) {
    gemm_f32(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
  } else {
    using Acc = wrap_acc_t<T>;
    for (int64_t i = 0; i < M; ++i) {
      T* c = C + i * ldc;
      if (!accumulate)
        for (int64_t j = 0; j < N; ++j) c[j] = T(0);
      for (int64_t k = 0; k < K; ++k) {
        const Acc a = static_cast<Acc>(A[i * lda + k]);
        const T* b = B + k * ldb;
        for (int64_t j = 0; j < N; ++j) c[j] = static_cast<T>(static_cast<Acc>(c[j]) + a * static_cast<Acc>(b[j]));
      }
    }
  }
}

// The floating dtypes these operators handle (float8 has no arithmetic here).
inline bool is_float_dtype(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 || dtype == DType::Float32 ||
         dtype == DType::Float64;
}

// The type the floating operators of this family compute in: float for the
// 16-bit floats and float32, double for float64.
inline DType floating_compute_dtype(DType dtype) {
  return dtype == DType::Float64 ? DType::Float64 : DType::Float32;
}

// Calls f(TypeTag<float>) or f(TypeTag<double>) for a compute dtype.
template <typename F>
decltype(auto) visit_compute_dtype(DType compute, F&& f) {
  if (compute == DType::Float64) return f(TypeTag<double>{});
  return f(TypeTag<float>{});
}

}  // namespace attention_family
}  // namespace pt2web
