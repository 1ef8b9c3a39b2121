// Exact rational arithmetic on int64 with overflow detection, for the
// symbolic-size code (sym_expr_*.cpp). Header-only; errors are thrown as
// ArithError and turned into pt2web errors by the callers.
#pragma once

#include <cstdint>
#include <string>

namespace pt2web::sym_detail {

// Thrown by the arithmetic helpers; callers turn it into the right Error code
// (BadFile while parsing constants, BadInput while evaluating).
struct ArithError {
  std::string what;
};

inline int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw ArithError{"integer overflow"};
  return r;
}

inline int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw ArithError{"integer overflow"};
  return r;
}

inline int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw ArithError{"integer overflow"};
  return r;
}

inline uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

inline uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b != 0) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// Python's floor division on integers (rounds toward negative infinity).
inline int64_t floor_div(int64_t n, int64_t d) {
  if (d == -1) return checked_sub(0, n);
  int64_t q = n / d;
  if (n % d != 0 && ((n < 0) != (d < 0))) --q;
  return q;
}

// A reduced fraction with a positive denominator.
struct Frac {
  int64_t num = 0;
  int64_t den = 1;

  static Frac of(int64_t n, int64_t d = 1) {
    if (d == 0) throw ArithError{"division by zero"};
    if (d < 0) {
      n = checked_sub(0, n);
      d = checked_sub(0, d);
    }
    int64_t g = static_cast<int64_t>(gcd_u64(magnitude(n), static_cast<uint64_t>(d)));
    if (g > 1) {
      n /= g;
      d /= g;
    }
    Frac f;
    f.num = n;
    f.den = d;
    return f;
  }

  bool is_integer() const { return den == 1; }
  bool is_zero() const { return num == 0; }
  bool operator==(const Frac& o) const { return num == o.num && den == o.den; }
  bool operator!=(const Frac& o) const { return !(*this == o); }
};

inline Frac operator+(const Frac& a, const Frac& b) {
  if (a.den == 1 && b.den == 1) return Frac::of(checked_add(a.num, b.num));
  return Frac::of(checked_add(checked_mul(a.num, b.den), checked_mul(b.num, a.den)),
                  checked_mul(a.den, b.den));
}

inline Frac operator-(const Frac& a) { return Frac::of(checked_sub(0, a.num), a.den); }
inline Frac operator-(const Frac& a, const Frac& b) { return a + (-b); }

inline Frac operator*(const Frac& a, const Frac& b) {
  // Cross-reduce first so intermediate products stay small.
  // Both gcds are at least 1 because denominators are positive.
  int64_t g1 = static_cast<int64_t>(gcd_u64(magnitude(a.num), static_cast<uint64_t>(b.den)));
  int64_t g2 = static_cast<int64_t>(gcd_u64(magnitude(b.num), static_cast<uint64_t>(a.den)));
  return Frac::of(checked_mul(a.num / g1, b.num / g2), checked_mul(a.den / g2, b.den / g1));
}

inline Frac reciprocal(const Frac& a) {
  if (a.num == 0) throw ArithError{"division by zero"};
  return Frac::of(a.den, a.num);
}

inline Frac operator/(const Frac& a, const Frac& b) { return a * reciprocal(b); }

inline int compare(const Frac& a, const Frac& b) {
  Frac d = a - b;
  return d.num < 0 ? -1 : (d.num > 0 ? 1 : 0);
}

inline int64_t floor_of(const Frac& a) { return floor_div(a.num, a.den); }

inline Frac floor_divide(const Frac& a, const Frac& b) { return Frac::of(floor_of(a / b)); }

// Python's a % b: the result takes the divisor's sign.
inline Frac python_mod(const Frac& a, const Frac& b) { return a - b * floor_divide(a, b); }

inline Frac power(Frac base, const Frac& exponent) {
  if (!exponent.is_integer()) throw ArithError{"a non-integer exponent"};
  if (exponent.num < 0) base = reciprocal(base);
  uint64_t e = magnitude(exponent.num);
  Frac result = Frac::of(1);
  while (e > 0) {
    if (e & 1) result = result * base;
    e >>= 1;
    if (e > 0) base = base * base;
  }
  return result;
}

inline Frac truth(bool b) { return Frac::of(b ? 1 : 0); }


}  // namespace pt2web::sym_detail
