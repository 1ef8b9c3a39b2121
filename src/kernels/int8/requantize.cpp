#include "kernels/int8/requantize.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "kernels/int8/int8_lanes.h"

namespace pt2web {

namespace {

inline float epilogue(int32_t acc, float multiplier, float bias, const Requantization& r) {
  float y = static_cast<float>(acc) * multiplier + bias;
  return y < r.lo ? r.lo : (y > r.hi ? r.hi : y);
}

// One value through the epilogue (the parameters in locals, min/max forms).
struct Epilogue {
  float m, b, y_lo, y_hi, inv, zp, q_lo, q_hi, v_lo, v_hi;

  Epilogue(const Requantization& r, int64_t n)
      : m(r.multiplier[n]), b(r.bias ? r.bias[n] : 0.0f), y_lo(r.lo), y_hi(r.hi), inv(r.inv_out_scale),
        zp(r.out_zero_point), q_lo(r.qmin), q_hi(r.qmax),
        // Values beyond one step outside [qmin, qmax] clamp the same either
        // way; limiting them first keeps round_half_even exact.
        v_lo(r.qmin - r.out_zero_point - 1.0f), v_hi(r.qmax - r.out_zero_point + 1.0f) {}

  int32_t operator()(int32_t acc) const {
    float y = static_cast<float>(acc) * m + b;
    y = y < y_lo ? y_lo : y;
    y = y > y_hi ? y_hi : y;
    return quantize(y);
  }

  int32_t quantize(float y) const {
    float v = y * inv;
    v = v < v_lo ? v_lo : v;
    v = v > v_hi ? v_hi : v;
    float q = round_half_even(v) + zp;
    q = q < q_lo ? q_lo : q;
    q = q > q_hi ? q_hi : q;
    q = q == q ? q : 0.0f;  // NaN (a NaN bias): converting it would trap in wasm
    return static_cast<int32_t>(q);
  }
};

template <typename Q>
void requantize(const int32_t* __restrict acc, int64_t count, int64_t n, const Requantization& r,
                Q* __restrict out, int64_t out_stride) {
  const Epilogue e(r, n);
  int64_t i = 0;
#if defined(__wasm_simd128__) || defined(__SSE2__)
  {
    // Scalar code would spend more on this than the products of a small-K tile.
    if (out_stride == 1 && count >= 8) {
      using namespace int8_lanes;
      const LaneEpilogue lanes(r, n, std::is_signed<Q>::value);
      for (; i + 8 <= count; i += 8) {
        Acc lo, hi;
        std::memcpy(&lo, acc + i, sizeof lo);
        std::memcpy(&hi, acc + i + 4, sizeof hi);
        store8_requantized(lo, hi, lanes, out + i);
      }
    }
  }
#endif
  for (; i < count; ++i) out[i * out_stride] = static_cast<Q>(e(acc[i]));
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

int32_t requantize_value(float y, const Requantization& r) { return Epilogue(r, 0).quantize(y); }

void store_requantized(const RequantizedOutput& o, int64_t m, int64_t n, const int32_t* acc, int64_t count) {
  const int64_t channel = o.channel0 + m, at = m * o.ld_m + n * o.ld_n;
  switch (o.kind) {
    case QuantizedOutputKind::Int8:
      requantize_s8(acc, count, channel, *o.requant, static_cast<int8_t*>(o.data) + at, o.ld_n);
      break;
    case QuantizedOutputKind::UInt8:
      requantize_u8(acc, count, channel, *o.requant, static_cast<uint8_t*>(o.data) + at, o.ld_n);
      break;
    case QuantizedOutputKind::Float32:
      requantize_f32(acc, count, channel, *o.requant, static_cast<float*>(o.data) + at, o.ld_n);
      break;
  }
}

}  // namespace pt2web
