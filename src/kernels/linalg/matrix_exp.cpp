#include "kernels/linalg/matrix_exp.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace pt2web::linalg {

namespace {

template <class T>
using Matrix = std::vector<T>;

template <class T>
Matrix<T> multiply(const Matrix<T>& x, const Matrix<T>& y, int64_t n) {
  Matrix<T> out(static_cast<size_t>(n * n), T(0));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k) {
      const T xik = x[i * n + k];
      for (int64_t j = 0; j < n; ++j) out[i * n + j] += xik * y[k * n + j];
    }
  return out;
}

// sum_i weights[i] * terms[i]
template <class T>
Matrix<T> combine(const std::vector<const Matrix<T>*>& terms, const std::vector<double>& weights) {
  Matrix<T> out(terms[0]->size(), T(0));
  for (size_t t = 0; t < terms.size(); ++t) {
    const T w = static_cast<T>(weights[t]);
    if (w == T(0)) continue;
    for (size_t i = 0; i < out.size(); ++i) out[i] += w * (*terms[t])[i];
  }
  return out;
}

template <class T>
void add_into(Matrix<T>& x, const Matrix<T>& y) {
  for (size_t i = 0; i < x.size(); ++i) x[i] += y[i];
}

template <class T>
Matrix<T> taylor(const Matrix<T>& a, int64_t n, int degree) {
  Matrix<T> eye(static_cast<size_t>(n * n), T(0));
  for (int64_t i = 0; i < n; ++i) eye[i * n + i] = T(1);
  if (degree == 1) return combine<T>({&eye, &a}, {1, 1});
  const Matrix<T> a2 = multiply(a, a, n);
  if (degree == 2) return combine<T>({&eye, &a, &a2}, {1, 1, 0.5});
  if (degree == 4) {  // I + A + A2 (I/2 + A/6 + A2/24)
    Matrix<T> out = combine<T>({&eye, &a}, {1, 1});
    add_into(out, multiply(a2, combine<T>({&eye, &a, &a2}, {1 / 2.0, 1 / 6.0, 1 / 24.0}), n));
    return out;
  }
  if (degree == 8) {
    const double r = 0.1330413469565007072504e+2;  // sqrt(177)
    const double x3 = 2. / 3., x1 = x3 * ((1. + r) / 88.), x2 = x3 * ((1. + r) / 352.);
    const double x4 = (-271. + 29. * r) / (315. * x3), x5 = (-11. + 11. * r) / (1260. * x3);
    const double x6 = (-99. + 11. * r) / (5040. * x3), x7 = (89. - r) / (5040. * x3), y2 = (857. - 58. * r) / 630.;
    const Matrix<T> a4 = multiply(a2, combine<T>({&a, &a2}, {x1, x2}), n);
    const Matrix<T> a8 =
        multiply(combine<T>({&a2, &a4}, {x3, 1}), combine<T>({&eye, &a, &a2, &a4}, {x4, x5, x6, x7}), n);
    return combine<T>({&eye, &a, &a2, &a8}, {1, 1, y2, 1});
  }
  const Matrix<T> a3 = multiply(a2, a, n);
  if (degree == 12) {
    static const double b[4][4] = {
        {9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740},
        {5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989},
        {0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230},
        {-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359}};
    std::vector<Matrix<T>> q;
    for (const auto& row : b) q.push_back(combine<T>({&eye, &a, &a2, &a3}, {row[0], row[1], row[2], row[3]}));
    add_into(q[2], multiply(q[3], q[3], n));
    add_into(q[1], q[2]);
    add_into(q[0], multiply(q[1], q[2], n));
    return q[0];
  }
  static const double b[5][5] = {
      {0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.},
      {0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
       -6.37898194594723280150e-04},
      {-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
       -6.98210122488052056106e-03, 3.34975017086070470649e-05},
      {-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
       2.95552570429315521194e-02, -1.39180257516060693404e-05},
      {0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05}};
  const Matrix<T> a6 = multiply(a3, a3, n);
  std::vector<Matrix<T>> q;
  for (const auto& row : b) q.push_back(combine<T>({&eye, &a, &a2, &a3, &a6}, {row[0], row[1], row[2], row[3], row[4]}));
  add_into(q[3], multiply(q[0], q[4], n));
  add_into(q[2], q[3]);
  add_into(q[1], multiply(q[2], q[3], n));
  return q[1];
}

// Upper 1-norm bounds of degrees 1, 2, 4, 8, 12 and 18.
template <class T>
const std::array<double, 6>& norm_bounds();
template <>
const std::array<double, 6>& norm_bounds<float>() {
  static const std::array<double, 6> b{1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                                       5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00};
  return b;
}
template <>
const std::array<double, 6>& norm_bounds<double>() {
  static const std::array<double, 6> b{2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                                       4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00};
  return b;
}

}  // namespace

template <class T>
void matrix_exp(const T* a, int64_t n, T* out) {
  Matrix<T> m(a, a + n * n);
  T norm = 0;
  for (int64_t j = 0; j < n; ++j) {
    T column = 0;
    for (int64_t i = 0; i < n; ++i) column += std::abs(m[i * n + j]);
    norm = std::max(norm, column);
  }
  const auto& bounds = norm_bounds<T>();
  static const int degrees[5] = {1, 2, 4, 8, 12};
  Matrix<T> result;
  bool done = false;
  for (int i = 0; i < 5 && !done; ++i)
    if (norm <= static_cast<T>(bounds[i])) result = taylor(m, n, degrees[i]), done = true;
  if (!done) {
    const T s = std::max(T(0), std::ceil(std::log2(norm / static_cast<T>(bounds[5]))));
    const int64_t squarings = std::isfinite(s) ? static_cast<int64_t>(s) : 0;
    const T scale = std::pow(T(2), s);
    for (T& x : m) x /= scale;
    result = taylor(m, n, 18);
    for (int64_t p = 0; p < squarings; ++p) result = multiply(result, result, n);
  }
  std::copy(result.begin(), result.end(), out);
}

template void matrix_exp<float>(const float*, int64_t, float*);
template void matrix_exp<double>(const double*, int64_t, double*);

}  // namespace pt2web::linalg
