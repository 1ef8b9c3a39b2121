#include "kernels/gemm/gemv.h"

#include <vector>

#include "kernels/vec4.h"

namespace pt2web::gemm_detail {

namespace {

using simd::Vec4;

// B's rows are contiguous: c += a[k] * B[k, :] for each k, four columns per vector.
void gemv_rows(int64_t N, int64_t K, const float* a, int64_t a_stride, MatrixF32 B, float* c, bool accumulate) {
  if (!accumulate)
    for (int64_t j = 0; j < N; ++j) c[j] = 0.0f;
  for (int64_t k = 0; k < K; ++k) {
    const float ak = a[k * a_stride];
    const float* row = B.data + k * B.row_stride;
    const Vec4 av = simd::splat4(ak);
    int64_t j = 0;
    for (; j + 8 <= N; j += 8) {
      simd::store4(c + j, simd::load4(c + j) + av * simd::load4(row + j));
      simd::store4(c + j + 4, simd::load4(c + j + 4) + av * simd::load4(row + j + 4));
    }
    for (; j + 4 <= N; j += 4) simd::store4(c + j, simd::load4(c + j) + av * simd::load4(row + j));
    for (; j < N; ++j) c[j] += ak * row[j];
  }
}

float dot(const float* x, const float* y, int64_t K) {
  Vec4 s0{}, s1{}, s2{}, s3{};
  int64_t k = 0;
  for (; k + 16 <= K; k += 16) {
    s0 += simd::load4(x + k) * simd::load4(y + k);
    s1 += simd::load4(x + k + 4) * simd::load4(y + k + 4);
    s2 += simd::load4(x + k + 8) * simd::load4(y + k + 8);
    s3 += simd::load4(x + k + 12) * simd::load4(y + k + 12);
  }
  for (; k + 4 <= K; k += 4) s0 += simd::load4(x + k) * simd::load4(y + k);
  float sum = simd::sum4((s0 + s1) + (s2 + s3));
  for (; k < K; ++k) sum += x[k] * y[k];
  return sum;
}

// B's columns are contiguous (a transposed weight): one dot product per column.
void gemv_columns(int64_t N, int64_t K, const float* a, int64_t a_stride, MatrixF32 B, float* c,
                  int64_t c_stride, bool accumulate) {
  thread_local std::vector<float> packed_a;
  if (a_stride != 1) {
    packed_a.resize(static_cast<size_t>(K));
    for (int64_t k = 0; k < K; ++k) packed_a[k] = a[k * a_stride];
    a = packed_a.data();
  }
  for (int64_t j = 0; j < N; ++j) {
    const float value = dot(a, B.data + j * B.col_stride, K);
    c[j * c_stride] = accumulate ? c[j * c_stride] + value : value;
  }
}

}  // namespace

void gemv_f32(int64_t N, int64_t K, const float* a, int64_t a_stride, MatrixF32 B, float* c, int64_t c_stride,
              bool accumulate) {
  if (B.col_stride == 1 && c_stride == 1) return gemv_rows(N, K, a, a_stride, B, c, accumulate);
  if (B.row_stride == 1) return gemv_columns(N, K, a, a_stride, B, c, c_stride, accumulate);
  for (int64_t j = 0; j < N; ++j) {
    float sum = accumulate ? c[j * c_stride] : 0.0f;
    for (int64_t k = 0; k < K; ++k) sum += a[k * a_stride] * B.at(k, j);
    c[j * c_stride] = sum;
  }
}

}  // namespace pt2web::gemm_detail
