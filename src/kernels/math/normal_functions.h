// Scalar functions around the error function and the standard normal
// distribution, in double precision, for the special-function operators:
// erfcx(x) = exp(x^2) erfc(x), the logarithm of the normal CDF,
// log_ndtr (accurate far into the lower tail) and its inverse ndtri.
// NaN propagates; out-of-domain arguments give NaN or infinities as ATen
// does (stated per function); nothing throws.
#pragma once

namespace pt2web {
namespace special {

double erfcx(double x);     // inf for x below about -26.6
double log_ndtr(double x);  // log Phi(x)
double ndtri(double p);     // Phi^-1(p): -inf at 0, inf at 1, NaN outside [0, 1]

}  // namespace special
}  // namespace pt2web
