#include "kernels/math/normal_functions.h"

#include <cmath>
#include <limits>

namespace pt2web {
namespace special {

namespace {

constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kInvSqrtPi = 0.56418958354775628695;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

// erfcx for x >= 25 from the asymptotic series
// 1 / (x sqrt(pi)) * sum_k (-1)^k (2k-1)!! / (2x^2)^k, while terms shrink.
double erfcx_large(double x) {
  const double inv = 1.0 / (2.0 * x * x);
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 100; ++k) {
    const double next = -term * (2.0 * k - 1) * inv;
    if (std::abs(next) >= std::abs(term)) break;
    term = next;
    sum += term;
    if (std::abs(term) < 1e-17) break;
  }
  return sum * kInvSqrtPi / x;
}

}  // namespace

double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x < -26.7) return std::numeric_limits<double>::infinity();
    // erfc(x) = 2 - erfc(-x) gives exp(x^2) * 2 - erfcx(-x).
    return 2.0 * std::exp(x * x) - erfcx(-x);
  }
  if (x < 25.0) return std::exp(x * x) * std::erfc(x);
  if (std::isinf(x)) return 0.0;
  return erfcx_large(x);
}

// Below -1, log(erfcx(-x/sqrt 2) / 2) - x^2/2 keeps precision where Phi
// underflows; above, log1p of the small complement.
double log_ndtr(double x) {
  const double t = x * kSqrtHalf;
  if (x < -1.0) return std::log(erfcx(-t) / 2.0) - t * t;
  return std::log1p(-std::erfc(t) / 2.0);
}

// For p <= 1/2, Newton's method on log Phi(x) = log p, which is concave
// and increasing in x: started left of the root (Phi(x) <= exp(-x^2/2)/2
// there, so x0 = -sqrt(-2 log p) is), the iterates rise monotonically to
// it. p > 1/2 reflects through ndtri(p) = -ndtri(1 - p), where 1 - p is exact.
double ndtri(double p) {
  if (std::isnan(p) || p < 0.0 || p > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0.0) return -std::numeric_limits<double>::infinity();
  if (p == 1.0) return std::numeric_limits<double>::infinity();
  if (p > 0.5) return -ndtri(1.0 - p);
  if (p == 0.5) return 0.0;
  const double target = std::log(p);
  double x = -std::sqrt(-2.0 * target);
  for (int i = 0; i < 100; ++i) {
    const double log_phi = log_ndtr(x);
    // d/dx log Phi(x) = phi(x) / Phi(x) = exp(-x^2/2 - log Phi(x)) / sqrt(2 pi).
    const double slope = kInvSqrt2Pi * std::exp(-0.5 * x * x - log_phi);
    const double step = (log_phi - target) / slope;
    x -= step;
    if (!(std::abs(step) > 1e-16 * std::abs(x))) break;  // also stops on a zero or NaN step
  }
  return x;
}

}  // namespace special
}  // namespace pt2web
