// The vectorized exp, tanh, sigmoid, silu and gelu against double-precision
// std:: references over the float range (relative error, or absolute error
// below 1e-30 where results are that small), array tails of every length,
// in-place use, and inf / -inf / NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/math/array_math.h"

using namespace pt2web;

namespace {

using ArrayFn = void (*)(const float*, float*, int64_t);

std::vector<float> sample_points() {
  std::vector<float> xs;
  for (double x = -110.0; x <= 110.0; x += 0.01723) xs.push_back(static_cast<float>(x));
  for (double x = -1.0; x <= 1.0; x += 0.000713) xs.push_back(static_cast<float>(x));
  for (float tiny : {1e-30f, -1e-30f, 1e-8f, -1e-8f, 0.0f, -0.0f}) xs.push_back(tiny);
  return xs;
}

void check_function(ArrayFn fn, double (*reference)(double), double rel, const char* name, double abs = 1e-30) {
  const std::vector<float> xs = sample_points();
  std::vector<float> ys(xs.size());
  fn(xs.data(), ys.data(), static_cast<int64_t>(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = reference(xs[i]);
    INFO(name << "(" << xs[i] << ") = " << ys[i] << ", want " << want);
    if (std::isinf(want) || std::fabs(want) > std::numeric_limits<float>::max()) {
      REQUIRE(std::isinf(ys[i]));
      REQUIRE((ys[i] > 0) == (want > 0));
    } else {
      REQUIRE(std::fabs(ys[i] - want) <= rel * std::fabs(want) + abs);
    }
  }
}

double ref_exp(double x) { return std::exp(x); }
double ref_tanh(double x) { return std::tanh(x); }
double ref_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double ref_silu(double x) { return x / (1.0 + std::exp(-x)); }
double ref_gelu(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double ref_gelu_tanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

}  // namespace

TEST_CASE("vector exp, tanh, sigmoid, silu and gelu match double references", "[kernels][math]") {
  check_function(exp_f32, ref_exp, 3e-7, "exp");
  check_function(tanh_f32, ref_tanh, 5e-7, "tanh");
  check_function(sigmoid_f32, ref_sigmoid, 5e-7, "sigmoid");
  check_function(silu_f32, ref_silu, 5e-7, "silu");
  check_function(gelu_erf_f32, ref_gelu, 1e-5, "gelu");  // exp(-x^2/2) amplifies rounding for x << 0
  // 1 + tanh(...) cancels for x << 0 in float (torch's float kernel too).
  check_function(gelu_tanh_f32, ref_gelu_tanh, 2e-6, "gelu_tanh", 1e-6);
}

TEST_CASE("vector math handles infinities, NaN, tails and in-place arrays", "[kernels][math]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {inf, -inf, nan, 1.0f, -1.0f};
  std::vector<float> y(x.size());
  exp_f32(x.data(), y.data(), 5);
  CHECK(y[0] == inf);
  CHECK(y[1] == 0.0f);
  CHECK(std::isnan(y[2]));
  tanh_f32(x.data(), y.data(), 5);
  CHECK(y[0] == 1.0f);
  CHECK(y[1] == -1.0f);
  CHECK(std::isnan(y[2]));
  sigmoid_f32(x.data(), y.data(), 5);
  CHECK(y[0] == 1.0f);
  CHECK(y[1] == 0.0f);
  CHECK(std::isnan(y[2]));
  gelu_erf_f32(x.data(), y.data(), 3);
  CHECK(y[0] == inf);
  CHECK(std::isnan(y[2]));
  // Every tail length gives the same values as the vector body, in place too.
  for (int64_t n = 0; n <= 9; ++n) {
    std::vector<float> in(static_cast<size_t>(n)), whole(16), part(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) in[i] = 0.37f * static_cast<float>(i) - 1.0f;
    std::vector<float> padded(16, 0.0f);
    std::copy(in.begin(), in.end(), padded.begin());
    exp_f32(padded.data(), whole.data(), 16);
    part = in;
    exp_f32(part.data(), part.data(), n);
    for (int64_t i = 0; i < n; ++i) CHECK(part[i] == whole[i]);
  }
}
