// Determinants from the LU factorization (lu_ops.h): _linalg_det,
// linalg_det / det, _linalg_slogdet, linalg_slogdet / slogdet and logdet.
// det = sign(P) * prod(diag U); slogdet splits it into a sign and
// log|det| (sign 0 and -inf for a singular matrix).
#include <cmath>
#include <limits>

#include "ops/linalg/linalg.h"
#include "ops/linalg/lu_ops.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"

namespace pt2web {

namespace {

struct Slogdet {
  Tensor sign, logabsdet;
};

// The permutation's sign from the pivots, times the signs of U's diagonal.
template <class T>
T pivot_sign(const int32_t* pivots, int64_t n) {
  T sign = T(1);
  for (int64_t j = 0; j < n; ++j)
    if (pivots[j] != j + 1) sign = -sign;
  return sign;
}

Tensor determinant(const LuResult& r) {
  const int64_t n = r.lu.size(-1), count = r.info.numel();
  Tensor det = Tensor::empty(r.lu.dtype(), r.info.sizes());
  dispatch_linalg(r.lu.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < count; ++b) {
      const T* lu = r.lu.data<T>() + b * n * n;
      T value = pivot_sign<T>(r.pivots.data<int32_t>() + b * n, n);
      for (int64_t i = 0; i < n; ++i) value *= lu[i * n + i];
      det.data<T>()[b] = value;
    }
  });
  return det;
}

Slogdet slogdet(const LuResult& r) {
  const int64_t n = r.lu.size(-1), count = r.info.numel();
  Slogdet out{Tensor::empty(r.lu.dtype(), r.info.sizes()), Tensor::empty(r.lu.dtype(), r.info.sizes())};
  dispatch_linalg(r.lu.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < count; ++b) {
      const T* lu = r.lu.data<T>() + b * n * n;
      T sign = pivot_sign<T>(r.pivots.data<int32_t>() + b * n, n), log_abs = T(0);
      for (int64_t i = 0; i < n; ++i) {
        const T d = lu[i * n + i];
        sign = d < T(0) ? -sign : d > T(0) ? sign : d == T(0) ? T(0) : d;  // NaN propagates
        log_abs += std::log(std::abs(d));
      }
      out.sign.data<T>()[b] = sign;
      out.logabsdet.data<T>()[b] = log_abs;
    }
  });
  return out;
}

void linalg_det_impl(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "linalg.det", true);
  const LuResult r = lu_factor_batched(a);
  c.push(determinant(r));
  c.push(r.lu);
  c.push(r.pivots);
}

void det_op(OpCall& c) { c.push(run_op1("aten::_linalg_det.default", {c.arg(0)})); }

void linalg_slogdet_impl(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "linalg.slogdet", true);
  const LuResult r = lu_factor_batched(a);
  const Slogdet s = slogdet(r);
  c.push(s.sign);
  c.push(s.logabsdet);
  c.push(r.lu);
  c.push(r.pivots);
}

void slogdet_op(OpCall& c) {
  std::vector<Value> out = run_op("aten::_linalg_slogdet.default", {c.arg(0)});
  c.outputs = {out[0], out[1]};
}

// logdet: log|det| where det > 0, -inf where det == 0 and NaN where det < 0.
void logdet_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "linalg.logdet", true);
  const Slogdet s = slogdet(lu_factor_batched(a));
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < s.sign.numel(); ++b) {
      const T sign = s.sign.data<T>()[b];
      T& value = s.logabsdet.data<T>()[b];
      if (sign < T(0)) value = std::numeric_limits<T>::quiet_NaN();
    }
  });
  c.push(s.logabsdet);
}

}  // namespace

void register_determinant_ops(OpTable& t) {
  t.add("aten::_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)", linalg_det_impl);
  t.add("aten::linalg_det(Tensor A) -> Tensor", det_op);
  t.add("aten::det(Tensor self) -> Tensor", det_op);
  t.add("aten::_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)",
        linalg_slogdet_impl);
  t.add("aten::linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", slogdet_op);
  t.add("aten::slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", slogdet_op);
  t.add("aten::logdet(Tensor self) -> Tensor", logdet_op);
}

}  // namespace pt2web
