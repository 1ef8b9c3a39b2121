#include "kernels/math/gamma_functions.h"

namespace pt2web {
namespace special {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEpsilon = 1e-16;
constexpr int kMaxIterations = 100000;

// x^a e^-x / Gamma(a), the factor both expansions share.
double gamma_prefactor(double a, double x) { return std::exp(a * std::log(x) - x - std::lgamma(a)); }

// P(a, x) by its power series: x^a e^-x / Gamma(a + 1) * sum x^k / ((a+1)...(a+k)),
// for x < a + 1 where the terms shrink from the start.
double lower_series(double a, double x) {
  double term = 1.0 / a;
  double sum = term;
  for (int k = 1; k < kMaxIterations; ++k) {
    term *= x / (a + k);
    sum += term;
    if (std::abs(term) < std::abs(sum) * kEpsilon) break;
  }
  return sum * gamma_prefactor(a, x);
}

// Q(a, x) by its continued fraction (Legendre's), evaluated with the
// modified Lentz method, for x >= a + 1.
double upper_continued_fraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / tiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < kMaxIterations; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1.0) < kEpsilon) break;
  }
  return h * gamma_prefactor(a, x);
}

// The cases both functions decide without an expansion; returns true and
// sets p when one applies.
bool gamma_edge_case(double a, double x, double& p) {
  if (std::isnan(a) || std::isnan(x) || a < 0 || x < 0) {
    p = kNaN;
    return true;
  }
  if (a == 0) {
    p = x > 0 ? 1.0 : kNaN;
    return true;
  }
  if (x == 0) {
    p = 0.0;
    return true;
  }
  if (std::isinf(a)) {
    p = std::isinf(x) ? kNaN : 0.0;
    return true;
  }
  if (std::isinf(x)) {
    p = 1.0;
    return true;
  }
  return false;
}

}  // namespace

double regularized_gamma_p(double a, double x) {
  double p;
  if (gamma_edge_case(a, x, p)) return p;
  return x < a + 1.0 ? lower_series(a, x) : 1.0 - upper_continued_fraction(a, x);
}

double regularized_gamma_q(double a, double x) {
  double p;
  if (gamma_edge_case(a, x, p)) return std::isnan(p) ? p : 1.0 - p;
  return x < a + 1.0 ? 1.0 - lower_series(a, x) : upper_continued_fraction(a, x);
}

}  // namespace special
}  // namespace pt2web
