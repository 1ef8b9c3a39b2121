#include "kernels/math/bessel_functions.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pt2web {
namespace special {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEpsilon = 1e-17;

// sum_k (x/2)^(2k+n) / (k! (k+n)!) * sign^k: I_n (sign = +1) and J_n
// (sign = -1) for n = 0, 1.
double bessel_power_series(int n, double x, double sign) {
  const double half = x / 2;
  const double q = sign * half * half;
  double term = n == 0 ? 1.0 : half;
  double sum = term;
  for (int k = 1; k < 500; ++k) {
    term *= q / (static_cast<double>(k) * (k + n));
    sum += term;
    if (std::abs(term) <= std::abs(sum) * kEpsilon) break;
  }
  return sum;
}

// The asymptotic series sum_k s^k a_k(nu) / x^k with
// a_k(nu) = prod_{j<=k} (4 nu^2 - (2j-1)^2) / (k! 8^k), summed while the
// terms shrink. s = -1 gives I's series, s = +1 K's.
double modified_asymptotic_series(int nu, double x, double s) {
  const double mu = 4.0 * nu * nu;
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k < 200; ++k) {
    const double odd = 2.0 * k - 1;
    const double next = term * s * (mu - odd * odd) / (k * 8.0 * x);
    if (std::abs(next) >= std::abs(term)) break;
    term = next;
    sum += term;
    if (std::abs(term) <= std::abs(sum) * kEpsilon) break;
  }
  return sum;
}

// exp(-|x|) I_n(|x|) for n = 0, 1 (the sign of odd orders is the caller's).
double scaled_bessel_i(int n, double ax) {
  if (ax <= 20.0) return bessel_power_series(n, ax, 1.0) * std::exp(-ax);
  return modified_asymptotic_series(n, ax, -1.0) / std::sqrt(2.0 * kPi * ax);
}

double bessel_i(int n, double ax) {
  if (ax <= 20.0) return bessel_power_series(n, ax, 1.0);
  // exp(x) / sqrt(2 pi x) without overflowing before the true result does.
  return std::exp(ax - 0.5 * std::log(2.0 * kPi * ax)) * modified_asymptotic_series(n, ax, -1.0);
}

// exp(x) K_nu(x) for x > 0 and any real order: the trapezoidal rule on
// int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt, whose integrand is smooth
// and decays double-exponentially, so the rule converges geometrically.
// Near t = 0 the integrand is close to a Gaussian of width 1/sqrt(x); a
// step of at most 0.4 widths keeps the rule's error below 1e-50.
double scaled_bessel_k_integral(double nu, double x) {
  const double h = std::min(0.1, 0.4 / std::sqrt(x));
  double sum = 0.5;  // the t = 0 end, weight 1/2: exp(0) cosh(0)
  for (int j = 1; j < 100000; ++j) {
    const double t = j * h;
    const double f = std::exp(-x * (std::cosh(t) - 1.0)) * std::cosh(nu * t);
    sum += f;
    if (f <= sum * kEpsilon) break;
  }
  return sum * h;
}

double scaled_bessel_k(int n, double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return kInf;
  if (std::isinf(x)) return 0.0;
  return scaled_bessel_k_integral(n, x);
}

double bessel_k(int n, double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return kInf;
  if (x > 750.0) return 0.0;
  return scaled_bessel_k_integral(n, x) * std::exp(-x);
}

}  // namespace

double bessel_i0(double x) { return bessel_i(0, std::abs(x)); }
double bessel_i0_scaled(double x) { return scaled_bessel_i(0, std::abs(x)); }
// The odd functions: f(-x) = -f(x).
double odd(double value_at_abs, double x) { return x < 0 ? -value_at_abs : value_at_abs; }

double bessel_i1(double x) { return odd(bessel_i(1, std::abs(x)), x); }
double bessel_i1_scaled(double x) { return odd(scaled_bessel_i(1, std::abs(x)), x); }
double bessel_k0(double x) { return bessel_k(0, x); }
double bessel_k0_scaled(double x) { return scaled_bessel_k(0, x); }
double bessel_k1(double x) { return bessel_k(1, x); }
double bessel_k1_scaled(double x) { return scaled_bessel_k(1, x); }

// Ai(x): for x > 1, sqrt(x / 3) K_{1/3}(zeta) / pi with zeta = 2/3 x^{3/2};
// for -7 <= x <= 1, the Maclaurin series Ai(0) f(x) + Ai'(0) g(x); below
// -7, the oscillating asymptotic expansion in zeta with the coefficients
// u_k = (2k+1)(2k+3)...(6k-1) / (216^k k!).
double airy_ai(double x) {
  if (std::isnan(x) || std::isinf(x)) return kNaN;  // torch gives NaN at +-inf too
  if (x > 1.0) {
    const double zeta = 2.0 / 3.0 * x * std::sqrt(x);
    if (zeta > 750.0) return 0.0;
    return std::sqrt(x / 3.0) / kPi * scaled_bessel_k_integral(1.0 / 3.0, zeta) * std::exp(-zeta);
  }
  if (x >= -7.0) {
    const double ai0 = 0.355028053887817239260, dai0 = -0.258819403792806798405;
    const double cube = x * x * x;
    double f = 1.0, g = x, f_sum = 1.0, g_sum = x;
    for (int k = 1; k < 200; ++k) {
      f *= cube / ((3.0 * k) * (3.0 * k - 1));
      g *= cube / ((3.0 * k) * (3.0 * k + 1));
      f_sum += f;
      g_sum += g;
      if (std::abs(f) + std::abs(g) <= kEpsilon * (std::abs(f_sum) + std::abs(g_sum))) break;
    }
    return ai0 * f_sum + dai0 * g_sum;
  }
  const double z = -x;
  const double zeta = 2.0 / 3.0 * z * std::sqrt(z);
  double u = 1.0, term = 1.0, p = 1.0, q = 0.0;
  for (int k = 1; k < 200; ++k) {
    u *= (6.0 * k - 5) * (6.0 * k - 3) * (6.0 * k - 1) / ((2.0 * k - 1) * 216.0 * k);
    const double next = u / std::pow(zeta, k);
    if (next >= std::abs(term)) break;
    term = next;
    const double signed_term = ((k / 2) % 2 == 0) ? term : -term;
    if (k % 2 == 0) p += signed_term;
    else q += signed_term;
    if (term <= kEpsilon) break;
  }
  const double phase = zeta - kPi / 4;
  return (std::cos(phase) * p + std::sin(phase) * q) / (std::sqrt(kPi) * std::pow(z, 0.25));
}

double spherical_bessel_j0(double x) {
  if (std::isinf(x)) return 0.0;
  if (std::abs(x) < 0.5) {
    // Taylor series of sin(x)/x: sum (-1)^k x^2k / (2k+1)!.
    const double x2 = x * x;
    double term = 1.0, sum = 1.0;
    for (int k = 1; k <= 8; ++k) {
      term *= -x2 / ((2.0 * k) * (2.0 * k + 1));
      sum += term;
    }
    return sum;
  }
  return std::sin(x) / x;
}

}  // namespace special
}  // namespace pt2web
