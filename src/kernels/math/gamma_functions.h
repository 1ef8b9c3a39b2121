// Scalar functions of the gamma family for the special-function operators:
// digamma, trigamma, the Hurwitz zeta function, polygamma, and the
// regularized incomplete gamma functions. Templates on the element type
// (float or double) compute in that type, as ATen's CPU kernels do, so
// results near poles match torch's float32 ones; NaN and infinities follow
// ATen's conventions (stated per function). No errors are thrown.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace pt2web {
namespace special {

template <typename T>
constexpr T kPi = static_cast<T>(3.14159265358979323846);

// psi(x) = d/dx log Gamma(x). psi(+-0) = -+inf, NaN at negative integers.
// Negative x reflect (psi(1 - x) - pi / tan(pi * frac(x))); then the
// recurrence psi(x) = psi(x + 1) - 1/x lifts x to >= 10, where the
// asymptotic series log x - 1/(2x) - sum B_2k / (2k x^2k) converges fast.
template <typename T>
T digamma(T x) {
  if (x == 0) return std::copysign(std::numeric_limits<T>::infinity(), -x);
  if (x < 0) {
    if (x == std::trunc(x)) return std::numeric_limits<T>::quiet_NaN();
    T whole;
    const T frac = std::modf(x, &whole);
    return digamma<T>(1 - x) - kPi<T> / std::tan(kPi<T> * frac);
  }
  T shift = 0;
  while (x < 10) {
    shift -= 1 / x;
    x += 1;
  }
  if (x == 10) return shift + static_cast<T>(2.25175258906672110764);  // psi(10)
  T tail = 0;
  if (x < static_cast<T>(1e17)) {
    // B_2k / (2k) for k = 7..1, Horner in z = 1/x^2.
    const T z = 1 / (x * x);
    const T coefficients[] = {
        static_cast<T>(1.0 / 12.0),      static_cast<T>(-1.0 / 120.0),      static_cast<T>(1.0 / 252.0),
        static_cast<T>(-1.0 / 240.0),    static_cast<T>(1.0 / 132.0),       static_cast<T>(-691.0 / 32760.0),
        static_cast<T>(1.0 / 12.0)};
    T poly = 0;
    for (int k = 6; k >= 0; --k) poly = poly * z + coefficients[k];
    tail = z * poly;
  }
  return shift + std::log(x) - static_cast<T>(0.5) / x - tail;
}

// psi'(x). Below 1/2 it reflects (psi'(1 - x) + pi^2 / sin^2(pi x), with a
// sign flip), so exact negative integers give huge finite values from the
// rounded sin, as torch's do; six recurrence steps, then the asymptotic
// series 1/x + 1/(2x^2) + sum B_2k / x^(2k+1).
template <typename T>
T trigamma(T x) {
  T sign = 1;
  T sum = 0;
  if (x < static_cast<T>(0.5)) {
    sign = -1;
    const T s = std::sin(kPi<T> * x);
    sum -= (kPi<T> * kPi<T>) / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    sum += 1 / (x * x);
    x += 1;
  }
  const T inv2 = 1 / (x * x);
  const T series =
      1 + 1 / (2 * x) + inv2 * (static_cast<T>(1.0 / 6) - inv2 * (static_cast<T>(1.0 / 30) - inv2 * static_cast<T>(1.0 / 42)));
  sum += series / x;
  return sign * sum;
}

// zeta(s, q) = sum_{k >= 0} (q + k)^-s. inf for s == 1 and for q a
// non-positive integer; NaN for s < 1, and for q < 0 with non-integer s.
// Direct summation of the first terms (at least nine, and until the base
// passes 9), then the Euler-Maclaurin tail with the coefficients
// (2k)! / B_2k.
template <typename T>
T hurwitz_zeta(T s, T q) {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(s) || std::isnan(q)) return nan;
  if (s == 1) return inf;
  if (s < 1) return nan;
  if (q <= 0) {
    if (q == std::floor(q)) return inf;
    if (s != std::floor(s)) return nan;
  }
  const T eps = std::numeric_limits<T>::epsilon() / 2;
  T sum = std::pow(q, -s);
  T base = q;
  T term = 0;
  for (int i = 0; i < 9 || base <= 9;) {
    ++i;
    base += 1;
    term = std::pow(base, -s);
    sum += term;
    if (std::abs(term / sum) < eps) return sum;
  }
  const T w = base;
  sum += term * w / (s - 1);
  sum -= static_cast<T>(0.5) * term;
  const double factorial_over_bernoulli[] = {12.0,
                                             -720.0,
                                             30240.0,
                                             -1209600.0,
                                             47900160.0,
                                             -1.8924375803183791606e9,
                                             7.47242496e10,
                                             -2.950130727918164224e12,
                                             1.1646782814350067249e14,
                                             -4.5979787224074726105e15,
                                             1.8152105401943546773e17,
                                             -7.1661652561756670113e18};
  T rising = 1;  // s (s+1) ... (s+2k-2)
  T k = 0;
  for (double c : factorial_over_bernoulli) {
    rising *= s + k;
    term /= w;
    const T correction = rising * term / static_cast<T>(c);
    sum += correction;
    if (std::abs(correction / sum) < eps) break;
    k += 1;
    rising *= s + k;
    term /= w;
    k += 1;
  }
  return sum;
}

// psi^(n)(x): digamma for n = 0, trigamma for n = 1, otherwise
// (-1)^(n+1) n! zeta(n + 1, x) with n! as exp(lgamma(n + 1)). n >= 0.
template <typename T>
T polygamma(int64_t n, T x) {
  if (n == 0) return digamma<T>(x);
  if (n == 1) return trigamma<T>(x);
  const T sign = (n % 2) ? T(1) : T(-1);
  const T factorial = std::exp(std::lgamma(static_cast<T>(n) + 1));
  return sign * factorial * hurwitz_zeta<T>(static_cast<T>(n) + 1, x);  // n + 1 in T: n may be int64's largest
}

// P(a, x) = gamma(a, x) / Gamma(a) and Q = 1 - P, for a, x >= 0 (NaN
// otherwise). Edge values as ATen: a = 0 gives P = 1 (Q = 0) for x > 0 and
// NaN at x = 0; x = 0 gives P = 0; a = inf gives P = 0 (NaN if x = inf too);
// x = inf gives P = 1.
double regularized_gamma_p(double a, double x);
double regularized_gamma_q(double a, double x);

}  // namespace special
}  // namespace pt2web
