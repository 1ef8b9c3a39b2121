// Scalar Bessel-type functions of one real argument, in double precision,
// for the special-function operators: the modified Bessel functions I0, I1
// (plain and exponentially scaled), K0, K1 (plain and scaled), the Bessel
// functions J0, J1, Y0, Y1, the Airy function Ai and the spherical Bessel
// function j0. I and K (bessel_functions.cpp) are written from the
// published expansions (power series, the asymptotic series, the integral
// K_nu(x) = int_0^inf exp(-x cosh t) cosh(nu t) dt); J0, J1, Y0, Y1
// (bessel_rational.cpp) evaluate Cephes' rational approximations exactly as
// torch's kernels do, so they agree with torch to rounding. Out-of-domain
// arguments give NaN or infinities as ATen does (stated per function);
// nothing throws.
#pragma once

namespace pt2web {
namespace special {

double bessel_i0(double x);          // even; inf past ~713, NaN at +-inf (as torch)
double bessel_i0_scaled(double x);   // exp(-|x|) I0(x)
double bessel_i1(double x);          // odd
double bessel_i1_scaled(double x);   // exp(-|x|) I1(x)
double bessel_k0(double x);          // inf at 0, NaN for x < 0
double bessel_k0_scaled(double x);   // exp(x) K0(x)
double bessel_k1(double x);          // inf at 0, NaN for x < 0
double bessel_k1_scaled(double x);   // exp(x) K1(x)
double bessel_j0(double x);          // even; NaN at +-inf (as torch), so are J1, Y0, Y1, Ai
double bessel_j1(double x);          // odd
double bessel_y0(double x);          // -inf at 0, NaN for x < 0
double bessel_y1(double x);          // -inf at 0, NaN for x < 0
double airy_ai(double x);
double spherical_bessel_j0(double x);  // sin(x) / x, 1 at 0, 0 at +-inf

}  // namespace special
}  // namespace pt2web
