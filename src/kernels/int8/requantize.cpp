#include "kernels/int8/requantize.h"

#include <cmath>

namespace pt2web {

namespace {

inline float epilogue(int32_t acc, float multiplier, float bias, const Requantization& r) {
  float y = static_cast<float>(acc) * multiplier + bias;
  return y < r.lo ? r.lo : (y > r.hi ? r.hi : y);
}

template <typename Q>
void requantize(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, Q* out, int64_t out_stride) {
  const float m = r.multiplier[n], b = r.bias ? r.bias[n] : 0.0f;
  for (int64_t i = 0; i < count; ++i) {
    float q = std::nearbyint(epilogue(acc[i], m, b, r) * r.inv_out_scale) + r.out_zero_point;
    q = q < r.qmin ? r.qmin : (q > r.qmax ? r.qmax : q);
    if (q != q) q = 0.0f;  // NaN (a NaN bias): converting it would trap in wasm
    out[i * out_stride] = static_cast<Q>(q);
  }
}

}  // namespace

void requantize_s8(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, int8_t* out,
                   int64_t out_stride) {
  requantize(acc, count, n, r, out, out_stride);
}

void requantize_u8(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, uint8_t* out,
                   int64_t out_stride) {
  requantize(acc, count, n, r, out, out_stride);
}

void requantize_f32(const int32_t* acc, int64_t count, int64_t n, const Requantization& r, float* out,
                    int64_t out_stride) {
  const float m = r.multiplier[n], b = r.bias ? r.bias[n] : 0.0f;
  for (int64_t i = 0; i < count; ++i) out[i * out_stride] = epilogue(acc[i], m, b, r);
}

}  // namespace pt2web
