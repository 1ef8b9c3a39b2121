// J0, J1, Y0, Y1 as torch's CPU kernels compute them: Cephes' rational
// approximations (S. L. Moshier's j0.c / j1.c coefficients) evaluated the
// way ATen's Math.h does, including its two departures from Cephes, so
// results agree with torch to the last bits rather than only to the true
// value:
//  - every polynomial is evaluated by plain Horner over the listed
//    coefficients; Cephes' denominators with an implied leading 1
//    (p1evl) lose that term in ATen;
//  - for x > 5, J0 and Y0 evaluate their asymptotic factors at 25 / x^2,
//    J1 and Y1 at (5 / x) * (5 / x).
// Up to x = 5: J0 = (z - r1)(z - r2) RP(z) / RQ(z), J1 = x (z - s1)(z - s2)
// RP1(z) / RQ1(z) with z = x^2 and r, s the squared first zeros; Y0, Y1 add
// the logarithmic terms to their own rationals. Beyond: sqrt(2 / (pi x))
// (P cos(x - phase) - (5 / x) Q sin(x - phase)) with P = PP/PQ, Q = QP/QQ
// (Y swaps cos and sin).
#include <cmath>
#include <cstddef>
#include <limits>

#include "kernels/math/bessel_functions.h"

namespace pt2web {
namespace special {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTwoOverPi = 0.636619772367581343075535053490057448;
constexpr double kSqrtTwoOverPi = 0.797884560802865355879892119868763737;
constexpr double kQuarterPi = 0.785398163397448309615660845819875721;
constexpr double kThreeQuarterPi = 2.356194490192344928846982537459627163;

// c[0] z^(N-1) + ... + c[N-1].
template <size_t N>
double horner(const double (&c)[N], double z) {
  double acc = 0.0;
  for (double coefficient : c) acc = acc * z + coefficient;
  return acc;
}

// The asymptotic factors of order 0 and 1 (Cephes' PP, PQ, QP, QQ).
struct Asymptotic {
  double pp[7], pq[7], qp[8], qq[7];
};

constexpr Asymptotic kOrder0 = {
    {7.96936729297347051624e-04, 8.28352392107440799803e-02, 1.23953371646414299388e+00, 5.44725003058768775090e+00,
     8.74716500199817011941e+00, 5.30324038235394892183e+00, 9.99999999999999997821e-01},
    {9.24408810558863637013e-04, 8.56288474354474431428e-02, 1.25352743901058953537e+00, 5.47097740330417105182e+00,
     8.76190883237069594232e+00, 5.30605288235394617618e+00, 1.00000000000000000218e+00},
    {-1.13663838898469149931e-02, -1.28252718670509318512e+00, -1.95539544257735972385e+01,
     -9.32060152123768231369e+01, -1.77681167980488050595e+02, -1.47077505154951170175e+02,
     -5.14105326766599330220e+01, -6.05014350600728481186e+00},
    {6.43178256118178023184e+01, 8.56430025976980587198e+02, 3.88240183605401609683e+03, 7.24046774195652478189e+03,
     5.93072701187316984827e+03, 2.06209331660327847417e+03, 2.42005740240291393179e+02}};

constexpr Asymptotic kOrder1 = {
    {7.62125616208173112003e-04, 7.31397056940917570436e-02, 1.12719608129684925192e+00, 5.11207951146807644818e+00,
     8.42404590141772420927e+00, 5.21451598682361504063e+00, 1.00000000000000000254e+00},
    {5.71323128072548699714e-04, 6.88455908754495404082e-02, 1.10514232634061696926e+00, 5.07386386128601488557e+00,
     8.39985554327604159757e+00, 5.20982848682361821619e+00, 9.99999999999999997461e-01},
    {5.10862594750176621635e-02, 4.98213872951233449420e+00, 7.58238284132545283818e+01, 3.66779609360150777800e+02,
     7.10856304998926107277e+02, 5.97489612400613639965e+02, 2.11688757100572135698e+02, 2.52070205858023719784e+01},
    {7.42373277035675149943e+01, 1.05644886038262816351e+03, 4.98641058337653607651e+03, 9.56231892404756170795e+03,
     7.99704160447350683650e+03, 2.82619278517639096600e+03, 3.36093607810698293419e+02}};

// sqrt(2 / (pi x)) (P trig_a - (5 / x) Q trig_b) for x > 5, with the
// polynomials at w (25 / x^2, rounded as the order's kernel rounds it).
double asymptotic(const Asymptotic& a, double x, double w, double trig_a, double trig_b) {
  const double p = horner(a.pp, w) / horner(a.pq, w);
  const double q = horner(a.qp, w) / horner(a.qq, w);
  return (p * trig_a - 5.0 / x * q * trig_b) * kSqrtTwoOverPi / std::sqrt(x);
}

constexpr double kJ0RP[] = {-4.79443220978201773821e+09, 1.95617491946556577543e+12, -2.49248344360967716204e+14,
                            9.70862251047306323952e+15};
constexpr double kJ0RQ[] = {4.99563147152651017219e+02, 1.73785401676374683123e+05, 4.84409658339962045305e+07,
                            1.11855537045356834862e+10, 2.11277520115489217587e+12, 3.10518229857422583814e+14,
                            3.18121955943204943306e+16, 1.71086294081043136091e+18};
constexpr double kJ1RP[] = {-8.99971225705559398224e+08, 4.52228297998194034323e+11, -7.27494245221818276015e+13,
                            3.68295732863852883286e+15};
constexpr double kJ1RQ[] = {6.20836478118054335476e+02, 2.56987256757748830383e+05, 8.35146791431949253037e+07,
                            2.21511595479792499675e+10, 4.74914122079991414898e+12, 7.84369607876235854894e+14,
                            8.95222336184627338078e+16, 5.32278620332680085395e+18};
constexpr double kY0YP[] = {1.55924367855235737965e+04,  -1.46639295903971606143e+07, 5.43526477051876500413e+09,
                            -9.82136065717911466409e+11, 8.75906394395366999549e+13,  -3.46628303384729719441e+15,
                            4.42733268572569800351e+16,  -1.84950800436986690637e+16};
constexpr double kY0YQ[] = {1.04128353664259848412e+03, 6.26107330137134956842e+05, 2.68919633393814121987e+08,
                            8.64002487103935000337e+10, 2.02979612750105546709e+13, 3.17157752842975028269e+15,
                            2.50596256172653059228e+17};
constexpr double kY1YP[] = {1.26320474790178026440e+09, -6.47355876379160291031e+11, 1.14509511541823727583e+14,
                            -8.12770255501325109621e+15, 2.02439475713594898196e+17, -7.78877196265950026825e+17};
constexpr double kY1YQ[] = {5.94301592346128195359e+02, 2.35564092943068577943e+05, 7.34811944459721705660e+07,
                            1.87601316108706159478e+10, 3.88231277496238566008e+12, 6.20557727146953693363e+14,
                            6.87141087355300489866e+16, 3.97270608116560655612e+18};

// The squares of the first two zeros of J0 and of J1.
constexpr double kJ0Zero1Sq = 5.78318596294678452118e+00, kJ0Zero2Sq = 3.04712623436620863991e+01;
constexpr double kJ1Zero1Sq = 1.46819706421238932572e+01, kJ1Zero2Sq = 4.92184563216946036703e+01;

double order1_w(double x) { return 5.0 / x * (5.0 / x); }

}  // namespace

double bessel_j0(double x) {
  x = std::abs(x);
  if (x <= 5.0) {
    if (x < 0.00001) return 1.0 - x * x / 4.0;
    const double z = x * x;
    return (z - kJ0Zero1Sq) * (z - kJ0Zero2Sq) * horner(kJ0RP, z) / horner(kJ0RQ, z);
  }
  // Beyond 5 (and for NaN and infinities, which give NaN through cos).
  return asymptotic(kOrder0, x, 25.0 / (x * x), std::cos(x - kQuarterPi), std::sin(x - kQuarterPi));
}

double bessel_j1(double x) {
  if (x < 0) return -bessel_j1(-x);
  if (x <= 5.0) {
    const double z = x * x;
    return horner(kJ1RP, z) / horner(kJ1RQ, z) * x * (z - kJ1Zero1Sq) * (z - kJ1Zero2Sq);
  }
  return asymptotic(kOrder1, x, order1_w(x), std::cos(x - kThreeQuarterPi), std::sin(x - kThreeQuarterPi));
}

double bessel_y0(double x) {
  if (x <= 5.0) {
    if (x == 0.0) return -kInf;
    if (x < 0.0) return kNaN;
    const double z = x * x;
    return horner(kY0YP, z) / horner(kY0YQ, z) + kTwoOverPi * std::log(x) * bessel_j0(x);
  }
  return asymptotic(kOrder0, x, 25.0 / (x * x), std::sin(x - kQuarterPi), -std::cos(x - kQuarterPi));
}

double bessel_y1(double x) {
  if (x <= 5.0) {
    if (x == 0.0) return -kInf;
    if (x < 0.0) return kNaN;
    const double z = x * x;
    return x * (horner(kY1YP, z) / horner(kY1YQ, z)) + kTwoOverPi * (bessel_j1(x) * std::log(x) - 1.0 / x);
  }
  return asymptotic(kOrder1, x, order1_w(x), std::sin(x - kThreeQuarterPi), -std::cos(x - kThreeQuarterPi));
}

}  // namespace special
}  // namespace pt2web
