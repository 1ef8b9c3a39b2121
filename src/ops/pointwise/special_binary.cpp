// Two-input special functions with broadcasting and ATen's promotion
// (integer and bool inputs compute in float32): the Hurwitz zeta function,
// the regularized incomplete gamma functions igamma / igammac, xlogy and
// xlog1py, and the orthogonal polynomials of torch.special (x, n), whose
// degree n is read as an integer (truncated). Each accepts a number in
// either position where ATen has that overload.
#include <cmath>
#include <limits>

#include "kernels/math/gamma_functions.h"
#include "kernels/math/orthogonal_polynomials.h"
#include "ops/op_compose.h"
#include "ops/pointwise/floating_maps.h"
#include "ops/pointwise/pointwise.h"

namespace pt2web {

namespace {

using namespace elementwise;

template <typename Fn, Precision P>
void special_binary(OpCall& c) {
  c.push(map_floating(c, operand(c, 0), operand(c, 1), Fn{}, P));
}

struct Zeta {
  template <typename M>
  M operator()(M s, M q) const { return special::hurwitz_zeta<M>(s, q); }
};

// x * log(y) (x * log1p(y) when OnePlus), 0 where x == 0 unless y is NaN.
template <bool OnePlus>
struct XTimesLog {
  template <typename M>
  M operator()(M x, M y) const {
    if (std::isnan(y)) return y;
    if (x == 0) return 0;
    return x * (OnePlus ? std::log1p(y) : std::log(y));
  }
};
using Xlogy = XTimesLog<false>;
using Xlog1py = XTimesLog<true>;

template <bool Upper>
struct IncompleteGamma {
  template <typename M>
  M operator()(M a, M x) const {
    const double ad = static_cast<double>(a), xd = static_cast<double>(x);
    return static_cast<M>(Upper ? special::regularized_gamma_q(ad, xd) : special::regularized_gamma_p(ad, xd));
  }
};

// igamma / igammac: ATen has them for floating dtypes only (no promotion of integers).
template <bool Upper>
void incomplete_gamma_op(OpCall& c) {
  c.push(map_common_floating(c, operand(c, 0), operand(c, 1), IncompleteGamma<Upper>{}));
}

template <bool InPlace>
void xlogy_op(OpCall& c) {
  push_result(c, map_floating(c, operand(c, 0), operand(c, 1), Xlogy{}), InPlace);
}

// The polynomial degree as torch's kernels read it: truncated toward zero;
// NaN, infinities and values beyond int64 become negative (x86's
// conversion result), which gives 0.
template <typename M>
int64_t degree(M n) {
  if (!(std::abs(n) < static_cast<M>(9.2e18))) return -1;
  return static_cast<int64_t>(n);
}

#define PT2WEB_POLYNOMIAL(Name, fn)                                 \
  struct Name {                                                     \
    template <typename M>                                           \
    M operator()(M x, M n) const { return special::fn<M>(x, degree(n)); } \
  };

PT2WEB_POLYNOMIAL(ChebyshevT, chebyshev_t)
PT2WEB_POLYNOMIAL(ChebyshevU, chebyshev_u)
PT2WEB_POLYNOMIAL(ChebyshevV, chebyshev_v)
PT2WEB_POLYNOMIAL(ChebyshevW, chebyshev_w)
PT2WEB_POLYNOMIAL(ShiftedChebyshevT, shifted_chebyshev_t)
PT2WEB_POLYNOMIAL(ShiftedChebyshevU, shifted_chebyshev_u)
PT2WEB_POLYNOMIAL(ShiftedChebyshevV, shifted_chebyshev_v)
PT2WEB_POLYNOMIAL(ShiftedChebyshevW, shifted_chebyshev_w)
PT2WEB_POLYNOMIAL(HermiteH, hermite_h)
PT2WEB_POLYNOMIAL(HermiteHe, hermite_he)
PT2WEB_POLYNOMIAL(LaguerreL, laguerre_l)
PT2WEB_POLYNOMIAL(LegendreP, legendre_p)

#undef PT2WEB_POLYNOMIAL

// Laguerre and Legendre values stay bounded where they are evaluated, so
// their recurrence (n steps per element, as ATen's) never stops early on an
// overflow: a degree past this many steps is refused rather than run for
// hours. The other polynomials overflow (and stop) within a few hundred
// steps or have closed forms for large degrees.
constexpr double kMostRecurrenceSteps = 1 << 22;

template <typename Fn>
void recurrence_polynomial(OpCall& c) {
  const Value& n = c.arg(1);
  double top = 0;
  if (n.is_tensor()) {
    if (n.tensor.numel() > 0) top = run_op1("aten::max.default", {n}).to(DType::Float64).item_as_double();
  } else {
    top = n.to_double();
  }
  if (top > kMostRecurrenceSteps && top < 9.2e18)
    fail(ErrorCode::Unsupported, c.where(), "degree ", top, " is past the ", kMostRecurrenceSteps,
         " recurrence steps per element pt2web runs for this polynomial");
  special_binary<Fn, Precision::Full>(c);
}

// Registers name(x, n), name.x_scalar and name.n_scalar.
template <typename Fn, KernelFn Kernel = special_binary<Fn, Precision::Full>>
void add_polynomial(OpTable& t, const std::string& name) {
  const std::string base = "aten::special_" + name;
  t.add(base + "(Tensor x, Tensor n) -> Tensor", Kernel);
  t.add(base + ".x_scalar(Scalar x, Tensor n) -> Tensor", Kernel);
  t.add(base + ".n_scalar(Tensor x, Scalar n) -> Tensor", Kernel);
}

}  // namespace

void register_special_binary_ops(OpTable& t) {
  t.add("aten::special_zeta(Tensor self, Tensor other) -> Tensor", special_binary<Zeta, Precision::Full>);
  t.add("aten::special_zeta.self_scalar(Scalar self, Tensor other) -> Tensor", special_binary<Zeta, Precision::Full>);
  t.add("aten::special_zeta.other_scalar(Tensor self, Scalar other) -> Tensor", special_binary<Zeta, Precision::Full>);
  t.add("aten::igamma(Tensor self, Tensor other) -> Tensor", incomplete_gamma_op<false>);
  t.add("aten::igammac(Tensor self, Tensor other) -> Tensor", incomplete_gamma_op<true>);

  t.add("aten::xlogy.Tensor(Tensor self, Tensor other) -> Tensor", xlogy_op<false>);
  t.add("aten::xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor", xlogy_op<false>);
  t.add("aten::xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor", xlogy_op<false>);
  t.add("aten::xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", xlogy_op<true>);
  t.add("aten::xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)", xlogy_op<true>);
  t.add("aten::special_xlog1py(Tensor self, Tensor other) -> Tensor", special_binary<Xlog1py, Precision::Any>);
  t.add("aten::special_xlog1py.self_scalar(Scalar self, Tensor other) -> Tensor",
        special_binary<Xlog1py, Precision::Any>);
  t.add("aten::special_xlog1py.other_scalar(Tensor self, Scalar other) -> Tensor",
        special_binary<Xlog1py, Precision::Any>);

  add_polynomial<ChebyshevT>(t, "chebyshev_polynomial_t");
  add_polynomial<ChebyshevU>(t, "chebyshev_polynomial_u");
  add_polynomial<ChebyshevV>(t, "chebyshev_polynomial_v");
  add_polynomial<ChebyshevW>(t, "chebyshev_polynomial_w");
  add_polynomial<ShiftedChebyshevT>(t, "shifted_chebyshev_polynomial_t");
  add_polynomial<ShiftedChebyshevU>(t, "shifted_chebyshev_polynomial_u");
  add_polynomial<ShiftedChebyshevV>(t, "shifted_chebyshev_polynomial_v");
  add_polynomial<ShiftedChebyshevW>(t, "shifted_chebyshev_polynomial_w");
  add_polynomial<HermiteH>(t, "hermite_polynomial_h");
  add_polynomial<HermiteHe>(t, "hermite_polynomial_he");
  add_polynomial<LaguerreL, recurrence_polynomial<LaguerreL>>(t, "laguerre_polynomial_l");
  add_polynomial<LegendreP, recurrence_polynomial<LegendreP>>(t, "legendre_polynomial_p");
}

}  // namespace pt2web
