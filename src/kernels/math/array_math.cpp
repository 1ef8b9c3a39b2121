#include "kernels/math/array_math.h"

#include <algorithm>
#include <cmath>

#include "kernels/math/vec4_math.h"
#include "kernels/parallel/thread_pool.h"

namespace pt2web {

namespace {

using simd::Vec4;

template <typename F>
void map4_serial(const float* in, float* out, int64_t n, F f) {
  int64_t i = 0;
  // Two independent vectors per step: the polynomials are chains of
  // dependent multiply-adds, and interleaving two of them fills the
  // pipeline (gelu 6.3 -> 4.5 ns per element under Node 20).
  for (; i + 8 <= n; i += 8) {
    const Vec4 a = f(simd::load4(in + i));
    const Vec4 b = f(simd::load4(in + i + 4));
    simd::store4(out + i, a);
    simd::store4(out + i + 4, b);
  }
  for (; i + 4 <= n; i += 4) simd::store4(out + i, f(simd::load4(in + i)));
  if (i == n) return;
  float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  std::copy(in + i, in + n, lanes);
  simd::store4(lanes, f(simd::load4(lanes)));
  std::copy(lanes, lanes + (n - i), out + i);
}

// Split across threads in parts of whole vectors, so every element is
// computed as on one thread. `cost`: rough operations per element.
template <typename F>
void map4(const float* in, float* out, int64_t n, F f, int64_t cost = 32) {
  parallel::parallel_for(
      n, 4, parallel::min_items_for(cost),
      [&](int64_t begin, int64_t end) { map4_serial(in + begin, out + begin, end - begin, f); }, 2);
}

}  // namespace

void exp_f32(const float* in, float* out, int64_t n) { map4(in, out, n, simd::exp4); }

void tanh_f32(const float* in, float* out, int64_t n) { map4(in, out, n, simd::tanh4); }

void sigmoid_f32(const float* in, float* out, int64_t n) { map4(in, out, n, simd::sigmoid4); }

void silu_f32(const float* in, float* out, int64_t n) {
  map4(in, out, n, [](Vec4 x) { return x * simd::sigmoid4(x); });
}

void gelu_erf_f32(const float* in, float* out, int64_t n) {
  map4(in, out, n, [](Vec4 x) { return simd::splat4(0.5f) * x * simd::erfc4(x * simd::splat4(-0.70710678118654752f)); });
}

void gelu_tanh_f32(const float* in, float* out, int64_t n) {
  map4(in, out, n, [](Vec4 x) {
    const Vec4 inner = simd::splat4(0.79788456080286536f) * (x + simd::splat4(0.044715f) * x * x * x);
    return simd::splat4(0.5f) * x * (simd::splat4(1.0f) + simd::tanh4(inner));
  });
}

void clamp_f32(const float* in, float* out, int64_t n, float lo, float hi) {
  const Vec4 low = simd::splat4(lo), high = simd::splat4(hi);
  map4(
      in, out, n,
      [low, high](Vec4 x) {
        const Vec4 raised = simd::select4(x < low, low, x);
        return simd::select4(high < raised, high, raised);
      },
      2);
}

void scale_shift_clamp_f32(const float* in, float* out, int64_t n, float scale, float shift, float lo, float hi) {
  const Vec4 a = simd::splat4(scale), b = simd::splat4(shift), low = simd::splat4(lo), high = simd::splat4(hi);
  map4_serial(in, out, n, [=](Vec4 x) {
    const Vec4 y = x * a + b;
    const Vec4 raised = simd::select4(y < low, low, y);
    return simd::select4(high < raised, high, raised);
  });
}

float softmax_f32(const float* in, float* out, int64_t n) {
  float max = in[0];
  for (int64_t i = 1; i < n; ++i) max = (in[i] > max || std::isnan(in[i])) ? in[i] : max;
  const Vec4 shift = simd::splat4(max);
  map4(in, out, n, [shift](Vec4 x) { return simd::exp4(x - shift); });
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) sum += out[i];
  const float scale = static_cast<float>(1.0 / sum);
  for (int64_t i = 0; i < n; ++i) out[i] *= scale;
  return max + static_cast<float>(std::log(sum));
}

}  // namespace pt2web
