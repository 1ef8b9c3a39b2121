// p-norm distances between rows: _cdist_forward (torch.cdist, every row of
// x1 against every row of x2, batch dims broadcast) and _pdist_forward
// (F.pdist, the upper triangle of one matrix against itself, row-major).
//
// As ATen's distance kernels: p = 0 counts differing coordinates, p = 1 sums
// |d|, p = 2 is sqrt of the sum of d*d, p = inf takes the largest |d|, other
// p give (sum |d|^p)^(1/p); the sums run in the element type. cdist with
// p = 2 on more than 25 rows (compute_mode None or 0), or compute_mode 1,
// uses ATen's matrix-product form sqrt(max(|a|^2 - 2 a.b + |b|^2, 0)) instead,
// with its rounding. float16/bfloat16 compute in float32: each materialized
// intermediate and the result is rounded to the 16-bit type.
#include <cmath>
#include <limits>

#include "ops/nn/nn.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// Rounds a float32 value through element type T (identity for float/double).
template <typename T>
opmath_t<T> round_to(opmath_t<T> v) {
  return static_cast<opmath_t<T>>(convert_element<T>(v));
}

// The direct distance between two rows of length m, accumulated in M.
template <typename M>
M row_distance(const M* a, const M* b, int64_t m, M p) {
  M acc = M(0);
  if (p == M(0)) {
    for (int64_t k = 0; k < m; ++k) {
      const M d = a[k] - b[k];
      acc += std::isnan(d) ? d : (d != M(0) ? M(1) : M(0));
    }
    return acc;
  }
  if (p == M(1)) {
    for (int64_t k = 0; k < m; ++k) acc += std::fabs(a[k] - b[k]);
    return acc;
  }
  if (p == M(2)) {
    for (int64_t k = 0; k < m; ++k) {
      const M d = a[k] - b[k];
      acc += d * d;
    }
    return std::sqrt(acc);
  }
  if (std::isinf(p)) {
    for (int64_t k = 0; k < m; ++k) {
      const M d = std::fabs(a[k] - b[k]);
      if (std::isnan(d) || std::isnan(acc)) acc = std::numeric_limits<M>::quiet_NaN();
      else if (d > acc) acc = d;
    }
    return acc;
  }
  for (int64_t k = 0; k < m; ++k) acc += std::pow(std::fabs(a[k] - b[k]), p);
  return std::pow(acc, M(1) / p);
}

// A contiguous copy of t in compute type M (float for the 16-bit floats).
template <typename T>
Tensor compute_copy(const Tensor& t) {
  using M = opmath_t<T>;
  return t.to(std::is_same<M, float>::value ? DType::Float32 : DType::Float64);
}

// ATen's _euclidean_dist for one pair of row blocks: n1, n2 are the squared
// norms (rounded to T as torch's tensors are), the product runs in M.
template <typename T>
void euclidean_block(const opmath_t<T>* x1, const opmath_t<T>* x2, int64_t r1, int64_t r2, int64_t m,
                     opmath_t<T>* out) {
  using M = opmath_t<T>;
  auto squared_norm = [m](const M* row) {
    M s = M(0);
    for (int64_t k = 0; k < m; ++k) s += round_to<T>(row[k] * row[k]);
    return round_to<T>(s);
  };
  std::vector<M> n2(r2);
  for (int64_t j = 0; j < r2; ++j) n2[j] = squared_norm(x2 + j * m);
  for (int64_t i = 0; i < r1; ++i) {
    const M* a = x1 + i * m;
    const M n1 = squared_norm(a);
    for (int64_t j = 0; j < r2; ++j) {
      const M* b = x2 + j * m;
      M dot = M(0);
      for (int64_t k = 0; k < m; ++k) dot += round_to<T>(M(-2) * a[k]) * b[k];
      M v = round_to<T>(dot + n1 + n2[j]);
      v = std::isnan(v) ? v : (v < M(0) ? M(0) : v);
      out[i * r2 + j] = round_to<T>(std::sqrt(v));
    }
  }
}

void check_floating(const OpCall& c, const Tensor& t, const char* what) {
  if (!is_floating(t.dtype()))
    fail(ErrorCode::BadInput, c.where(), what, dtype_name(t.dtype()));
}

// torch.cdist's checks (ATen's cdist_impl / _cdist_forward, in their order).
void check_cdist(const OpCall& c, const Tensor& x1, const Tensor& x2, double p, int64_t mode) {
  if (x1.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  if (x2.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  if (x1.size(-1) != x2.size(-1))
    fail(ErrorCode::BadInput, c.where(), "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
         " X2: ", x2.size(-1));
  check_floating(c, x1, "cdist only supports floating-point dtypes, X1 got: ");
  check_floating(c, x2, "cdist only supports floating-point dtypes, X2 got: ");
  if (x1.dtype() != x2.dtype())
    fail(ErrorCode::BadInput, c.where(), "cdist: X1 and X2 must have the same dtype, X1 got: ",
         dtype_name(x1.dtype()), " X2 got: ", dtype_name(x2.dtype()));
  if (!(p >= 0)) fail(ErrorCode::BadInput, c.where(), "cdist only supports non-negative p values");
  if (mode < 0 || mode > 2) fail(ErrorCode::BadInput, c.where(), "possible modes: 0, 1, 2, but was: ", mode);
}

template <typename T>
Tensor cdist(const Tensor& x1, const Tensor& x2, double p, bool use_mm, const Shape& batch) {
  using M = opmath_t<T>;
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2), m = x1.size(-1);
  Shape shape1 = batch, shape2 = batch, out_shape = batch;
  shape1.insert(shape1.end(), {r1, m});
  shape2.insert(shape2.end(), {r2, m});
  out_shape.insert(out_shape.end(), {r1, r2});
  const Tensor a = compute_copy<T>(expand_view(x1, shape1));
  const Tensor b = compute_copy<T>(expand_view(x2, shape2));
  Tensor out = Tensor::empty(a.dtype(), out_shape);
  const int64_t batches = shape_numel(batch);
  const M* pa = a.data<M>();
  const M* pb = b.data<M>();
  M* po = out.data<M>();
  for (int64_t n = 0; n < batches; ++n) {
    const M* xa = pa + n * r1 * m;
    const M* xb = pb + n * r2 * m;
    M* o = po + n * r1 * r2;
    if (use_mm) {
      euclidean_block<T>(xa, xb, r1, r2, m, o);
      continue;
    }
    for (int64_t i = 0; i < r1; ++i)
      for (int64_t j = 0; j < r2; ++j) o[i * r2 + j] = row_distance<M>(xa + i * m, xb + j * m, m, static_cast<M>(p));
  }
  return out.to(x1.dtype());
}

void cdist_forward_op(OpCall& c) {
  const Tensor& x1 = c.tensor(0);
  const Tensor& x2 = c.tensor(1);
  const double p = c.double_arg(2);
  const int64_t mode = c.optional_int(3).value_or(0);
  check_cdist(c, x1, x2, p, mode);
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2), m = x1.size(-1);
  const Shape batch1(x1.sizes().begin(), x1.sizes().end() - 2);
  const Shape batch2(x2.sizes().begin(), x2.sizes().end() - 2);
  const Shape batch = broadcast_shapes(batch1, batch2);
  Shape out_shape = batch;
  out_shape.insert(out_shape.end(), {r1, r2});
  if (r1 == 0 || r2 == 0 || shape_numel(batch) == 0 || m == 0) {
    // Empty, or rows without columns: every distance is 0.
    c.push(Tensor::empty(x1.dtype(), out_shape));
    return;
  }
  const bool use_mm = p == 2.0 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)));
  visit_floating_dtype(x1.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    c.push(cdist<T>(x1, x2, p, use_mm, batch));
  });
}

void pdist_forward_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const double p = c.double_arg(1);
  if (self.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "pdist only supports 2D tensors, got: ", self.dim(), "D");
  if (!is_floating(self.dtype())) fail(ErrorCode::BadInput, c.where(), "pdist only supports floating-point dtypes");
  if (!(p >= 0)) fail(ErrorCode::BadInput, c.where(), "pdist only supports non-negative p values");
  const int64_t n = self.size(0), m = self.size(1);
  const int64_t pairs = n <= 1 ? 0 : n * (n - 1) / 2;
  if (pairs == 0 || m == 0) {
    c.push(Tensor::empty(self.dtype(), {pairs}));
    return;
  }
  visit_floating_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const Tensor x = compute_copy<T>(self);
    Tensor out = Tensor::empty(x.dtype(), {pairs});
    const M* px = x.data<M>();
    M* po = out.data<M>();
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) po[k++] = row_distance<M>(px + i * m, px + j * m, m, static_cast<M>(p));
    c.push(out.to(self.dtype()));
  });
}

}  // namespace

void register_distance_ops(OpTable& t) {
  t.add("aten::_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor", cdist_forward_op);
  t.add("aten::_pdist_forward(Tensor self, float p=2) -> Tensor", pdist_forward_op);
}

}  // namespace pt2web
