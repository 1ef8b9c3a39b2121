// The classical orthogonal polynomials of degree n at x, in the element type
// T (float or double, as ATen's CPU kernels compute): Chebyshev T, U, V, W
// (and their shifted forms on [0, 1]), physicists' and probabilists'
// Hermite H and He, Laguerre L and Legendre P. Negative degrees give 0.
// Inside (-1, 1), high-degree Chebyshev polynomials use their trigonometric
// closed forms (cos(n t), sin((n+1) t) / sin t, ... with x = cos t); at
// x = +-1 the exact endpoint values; otherwise the three-term recurrences.
// Nothing throws; the caller bounds n (the recurrences take n steps).
#pragma once

#include <cmath>
#include <cstdint>

namespace pt2web {
namespace special {

// Runs the recurrence next = step(k, p, q) from p = P_0, q = P_1 up to degree n >= 2.
// Once a value is NaN every later one is (each step is linear in p and q), so
// the loop stops there: a huge degree whose values overflow ends in a few
// hundred steps with the NaN the full loop would give.
template <typename T, typename Step>
T three_term_recurrence(int64_t n, T p, T q, Step step) {
  for (int64_t k = 1; k < n; ++k) {
    const T next = step(k, p, q);
    p = q;
    q = next;
    if (q != q) return q;
  }
  return q;
}

// The sign (-1)^n.
template <typename T>
T alternating(int64_t n) {
  return n % 2 == 0 ? T(1) : T(-1);
}

template <typename T>
T chebyshev_t(T x, int64_t n) {
  if (n < 0) return 0;
  if (std::abs(x) == 1) return x > 0 ? T(1) : alternating<T>(n);
  if (n > 6 && std::abs(x) < 1) return std::cos(static_cast<T>(n) * std::acos(x));
  if (n == 0) return 1;
  if (n == 1) return x;
  return three_term_recurrence<T>(n, T(1), x, [x](int64_t, T p, T q) { return (x + x) * q - p; });
}

template <typename T>
T chebyshev_u(T x, int64_t n) {
  if (n < 0) return 0;
  const T n1 = static_cast<T>(n) + 1;  // in T: n may be int64's largest
  if (std::abs(x) == 1) return x > 0 ? n1 : alternating<T>(n) * n1;
  if (n > 8 && std::abs(x) < 1) {
    const T t = std::acos(x);
    if (std::sin(t) != 0) return std::sin(n1 * t) / std::sin(t);
    return n1 * std::cos(n1 * t) * x;
  }
  if (n == 0) return 1;
  if (n == 1) return x + x;
  return three_term_recurrence<T>(n, T(1), x + x, [x](int64_t, T p, T q) { return (x + x) * q - p; });
}

template <typename T>
T chebyshev_v(T x, int64_t n) {
  if (n < 0) return 0;
  const T odd = static_cast<T>(n) * 2 + 1;  // in T, as n1 above
  if (std::abs(x) == 1) return x > 0 ? T(1) : alternating<T>(n) * odd;
  if (n > 8 && std::abs(x) < 1) {
    const T t = std::acos(x);
    return std::cos((static_cast<T>(n) + T(0.5)) * t) / std::cos(t / 2);
  }
  if (n == 0) return 1;
  if (n == 1) return x + x - 1;
  return three_term_recurrence<T>(n, T(1), x + x - 1, [x](int64_t, T p, T q) { return (x + x) * q - p; });
}

template <typename T>
T chebyshev_w(T x, int64_t n) {
  if (n < 0) return 0;
  const T odd = static_cast<T>(n) * 2 + 1;  // in T, as n1 above
  if (std::abs(x) == 1) return x > 0 ? odd : alternating<T>(n);
  if (n > 8 && std::abs(x) < 1) {
    const T t = std::acos(x);
    return std::sin((static_cast<T>(n) + T(0.5)) * t) / std::sin(t / 2);
  }
  if (n == 0) return 1;
  if (n == 1) return x + x + 1;
  return three_term_recurrence<T>(n, T(1), x + x + 1, [x](int64_t, T p, T q) { return (x + x) * q - p; });
}

// H_{k+1} = 2x H_k - 2k H_{k-1}.
template <typename T>
T hermite_h(T x, int64_t n) {
  if (n < 0) return 0;
  if (n == 0) return 1;
  if (n == 1) return x + x;
  return three_term_recurrence<T>(n, T(1), x + x,
                                  [x](int64_t k, T p, T q) { return (x + x) * q - static_cast<T>(2 * k) * p; });
}

// He_{k+1} = x He_k - k He_{k-1}.
template <typename T>
T hermite_he(T x, int64_t n) {
  if (n < 0) return 0;
  if (n == 0) return 1;
  if (n == 1) return x;
  return three_term_recurrence<T>(n, T(1), x, [x](int64_t k, T p, T q) { return x * q - static_cast<T>(k) * p; });
}

// (k+1) L_{k+1} = (2k + 1 - x) L_k - k L_{k-1}.
template <typename T>
T laguerre_l(T x, int64_t n) {
  if (n < 0) return 0;
  if (x == 0 || n == 0) return 1;
  if (n == 1) return 1 - x;
  return three_term_recurrence<T>(n, T(1), 1 - x, [x](int64_t k, T p, T q) {
    const T kk = static_cast<T>(k);
    return ((kk + kk + 1 - x) * q - kk * p) / (kk + 1);
  });
}

// (k+1) P_{k+1} = (2k + 1) x P_k - k P_{k-1}.
template <typename T>
T legendre_p(T x, int64_t n) {
  if (n < 0) return 0;
  if (std::abs(x) == 1) return x > 0 || n == 0 ? T(1) : alternating<T>(n);
  if (n == 0) return 1;
  if (n == 1) return x;
  return three_term_recurrence<T>(n, T(1), x, [x](int64_t k, T p, T q) {
    const T kk = static_cast<T>(k);
    return ((kk + kk + 1) * x * q - kk * p) / (kk + 1);
  });
}

// The shifted Chebyshev polynomials on [0, 1]: the plain ones at 2x - 1.
template <typename T>
T shifted_chebyshev_t(T x, int64_t n) { return chebyshev_t<T>(x + x - 1, n); }
template <typename T>
T shifted_chebyshev_u(T x, int64_t n) { return chebyshev_u<T>(x + x - 1, n); }
template <typename T>
T shifted_chebyshev_v(T x, int64_t n) { return chebyshev_v<T>(x + x - 1, n); }
template <typename T>
T shifted_chebyshev_w(T x, int64_t n) { return chebyshev_w<T>(x + x - 1, n); }

}  // namespace special
}  // namespace pt2web
