// One-input special functions (torch.special and their aten:: names):
// lgamma, digamma, polygamma, mvlgamma, the modified Bessel functions I0/I1
// (plain and scaled), K0/K1 (plain and scaled), the Bessel functions
// J0/J1/Y0/Y1, Airy Ai, the spherical j0, erfcx, ndtr, log_ndtr, ndtri,
// entr and sinc. Integer and bool inputs compute in float32, as ATen's
// unary float ops; the scalar math is in kernels/math. The functions that
// ATen implements only for float32/float64 refuse 16-bit floats as it does.
#include <cmath>
#include <limits>

#include "kernels/math/bessel_functions.h"
#include "kernels/math/gamma_functions.h"
#include "kernels/math/normal_functions.h"
#include "ops/pointwise/floating_maps.h"
#include "ops/pointwise/pointwise.h"
#include "tensor/storage_size.h"

namespace pt2web {

namespace {

using namespace elementwise;

struct Lgamma {
  template <typename M>
  M operator()(M x) const { return std::lgamma(x); }
};

struct Digamma {
  template <typename M>
  M operator()(M x) const { return special::digamma<M>(x); }
};

// entr(x) = -x log x for x > 0, 0 at 0, -inf below; NaN stays NaN.
struct Entr {
  template <typename M>
  M operator()(M x) const {
    if (std::isnan(x)) return x;
    if (x > 0) return -x * std::log(x);
    if (x == 0) return 0;
    return -std::numeric_limits<M>::infinity();
  }
};

// ndtr(x) = (1 + erf(x / sqrt 2)) / 2 in the compute type, the formula
// torch evaluates (so the far lower tail is 0, as in torch).
struct Ndtr {
  template <typename M>
  M operator()(M x) const {
    return (1 + std::erf(x * static_cast<M>(0.70710678118654752440))) / 2;
  }
};

// sinc(x) = sin(pi x) / (pi x), 1 at 0.
struct Sinc {
  template <typename M>
  M operator()(M x) const {
    if (x == 0) return 1;
    const M product = special::kPi<M> * x;
    return std::sin(product) / product;
  }
};

template <typename Fn, Precision P = Precision::Any, bool InPlace = false>
void special_unary(OpCall& c) {
  push_result(c, map_floating(c, operand(c.tensor(0)), Fn{}, P), InPlace);
}

template <double (*Fn)(double)>
void full_precision_unary(OpCall& c) {
  special_unary<InDouble<Fn>, Precision::Full>(c);
}

template <double (*Fn)(double)>
void any_precision_unary(OpCall& c) {
  special_unary<InDouble<Fn>, Precision::Any>(c);
}

// polygamma(n, self) and polygamma_(self, n): the tensor's position differs.
Tensor polygamma_values(const OpCall& c, int64_t n, const Tensor& x) {
  if (n < 0) fail(ErrorCode::BadInput, c.where(), "polygamma(n, x) does not support negative n.");
  return map_floating(c, operand(x), [n](auto v) { return special::polygamma(n, v); });
}

void polygamma_op(OpCall& c) { c.push(polygamma_values(c, c.int_arg(0), c.tensor(1))); }
void polygamma_in_place_op(OpCall& c) { push_result(c, polygamma_values(c, c.int_arg(1), c.tensor(0)), true); }

// mvlgamma(x, p) = sum_{j<p} lgamma(x - j/2) + p (p - 1) / 4 * log(pi), the
// terms added from j = p - 1 down, as torch's arange over the offsets does.
template <bool InPlace>
void mvlgamma_op(OpCall& c) {
  const int64_t p = c.int_arg(1);
  if (p < 1) fail(ErrorCode::BadInput, c.where(), "p has to be greater than or equal to 1");
  // ATen builds the p terms as a tensor, [*self.shape, p]; the same size limit applies.
  int64_t terms = 0;
  if (__builtin_mul_overflow(c.tensor(0).numel(), p, &terms))
    fail(ErrorCode::OutOfMemory, c.where(), "out of memory: ", p, " terms for each of ", c.tensor(0).numel(), " elements");
  storage_bytes(terms, c.tensor(0).dtype());
  const double constant = static_cast<double>(p) * static_cast<double>(p - 1) / 4.0 * std::log(special::kPi<double>);
  Tensor out = map_floating(c, operand(c.tensor(0)), [p, constant](auto x) {
    using M = decltype(x);
    M sum = 0;
    for (int64_t j = p - 1; j >= 0; --j) sum += std::lgamma(x - static_cast<M>(j) / 2);
    return sum + static_cast<M>(constant);
  });
  push_result(c, out, InPlace);
}

}  // namespace

void register_special_ops(OpTable& t) {
  t.add("aten::lgamma(Tensor self) -> Tensor", special_unary<Lgamma>);
  t.add("aten::lgamma_(Tensor(a!) self) -> Tensor(a!)", special_unary<Lgamma, Precision::Any, true>);
  t.add("aten::digamma(Tensor self) -> Tensor", special_unary<Digamma>);
  t.add("aten::digamma_(Tensor(a!) self) -> Tensor(a!)", special_unary<Digamma, Precision::Any, true>);
  t.add("aten::polygamma(int n, Tensor self) -> Tensor", polygamma_op);
  t.add("aten::special_polygamma(int n, Tensor self) -> Tensor", polygamma_op);
  t.add("aten::polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", polygamma_in_place_op);
  t.add("aten::mvlgamma(Tensor self, int p) -> Tensor", mvlgamma_op<false>);
  t.add("aten::mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)", mvlgamma_op<true>);
  t.add("aten::special_entr(Tensor self) -> Tensor", special_unary<Entr>);
  t.add("aten::sinc(Tensor self) -> Tensor", special_unary<Sinc>);
  t.add("aten::sinc_(Tensor(a!) self) -> Tensor(a!)", special_unary<Sinc, Precision::Any, true>);

  t.add("aten::i0(Tensor self) -> Tensor", any_precision_unary<special::bessel_i0>);
  t.add("aten::i0_(Tensor(a!) self) -> Tensor(a!)", special_unary<InDouble<special::bessel_i0>, Precision::Any, true>);
  t.add("aten::special_i0e(Tensor self) -> Tensor", any_precision_unary<special::bessel_i0_scaled>);
  t.add("aten::special_i1(Tensor self) -> Tensor", any_precision_unary<special::bessel_i1>);
  t.add("aten::special_i1e(Tensor self) -> Tensor", any_precision_unary<special::bessel_i1_scaled>);
  t.add("aten::special_ndtr(Tensor self) -> Tensor", special_unary<Ndtr>);

  t.add("aten::special_modified_bessel_i0(Tensor self) -> Tensor", full_precision_unary<special::bessel_i0>);
  t.add("aten::special_modified_bessel_i1(Tensor self) -> Tensor", full_precision_unary<special::bessel_i1>);
  t.add("aten::special_modified_bessel_k0(Tensor self) -> Tensor", full_precision_unary<special::bessel_k0>);
  t.add("aten::special_modified_bessel_k1(Tensor self) -> Tensor", full_precision_unary<special::bessel_k1>);
  t.add("aten::special_scaled_modified_bessel_k0(Tensor x) -> Tensor", full_precision_unary<special::bessel_k0_scaled>);
  t.add("aten::special_scaled_modified_bessel_k1(Tensor x) -> Tensor", full_precision_unary<special::bessel_k1_scaled>);
  t.add("aten::special_bessel_j0(Tensor self) -> Tensor", full_precision_unary<special::bessel_j0>);
  t.add("aten::special_bessel_j1(Tensor self) -> Tensor", full_precision_unary<special::bessel_j1>);
  t.add("aten::special_bessel_y0(Tensor self) -> Tensor", full_precision_unary<special::bessel_y0>);
  t.add("aten::special_bessel_y1(Tensor self) -> Tensor", full_precision_unary<special::bessel_y1>);
  t.add("aten::special_airy_ai(Tensor x) -> Tensor", full_precision_unary<special::airy_ai>);
  t.add("aten::special_spherical_bessel_j0(Tensor x) -> Tensor", full_precision_unary<special::spherical_bessel_j0>);
  t.add("aten::special_erfcx(Tensor self) -> Tensor", full_precision_unary<special::erfcx>);
  t.add("aten::special_log_ndtr(Tensor self) -> Tensor", full_precision_unary<special::log_ndtr>);
  t.add("aten::special_ndtri(Tensor self) -> Tensor", full_precision_unary<special::ndtri>);
}

}  // namespace pt2web
