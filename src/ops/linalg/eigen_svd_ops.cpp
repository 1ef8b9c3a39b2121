// Eigen- and singular value decompositions: _linalg_eigh, linalg_eigh,
// linalg_eigvalsh (kernels/linalg/symmetric_eigen) and _linalg_svd,
// linalg_svd, svd, linalg_svdvals (kernels/linalg/jacobi_svd). Eigenvalues
// ascend and singular values descend, as syevd and gesdd return them; the
// signs of the vectors are the kernels' (see docs/DECISIONS.md).
#include <algorithm>

#include "kernels/linalg/jacobi_svd.h"
#include "kernels/linalg/symmetric_eigen.h"
#include "ops/linalg/linalg.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"
#include "ops/views.h"

namespace pt2web {

namespace {

void eigh(OpCall& c, const Tensor& a, const std::string& uplo, bool compute_v) {
  check_matrix_input(c, a, "linalg.eigh", true);
  if (uplo != "L" && uplo != "U" && uplo != "l" && uplo != "u")
    fail(ErrorCode::BadInput, c.where(), "Expected UPLO argument to be 'L' or 'U', but got ", uplo);
  const int64_t n = a.size(-1);
  const Shape batch = batch_shape(a);
  // The kernel reads the lower triangle; the upper one is the lower one of A^T.
  Tensor work = uplo == "U" || uplo == "u" ? transposed_copy(a) : a.clone();
  Tensor values = Tensor::empty(a.dtype(), batched(batch, {n}));
  Tensor vectors = Tensor::empty(a.dtype(), compute_v ? batched(batch, {n, n}) : Shape{0});
  Tensor info = int32_zeros(batch);
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch); ++b)
      info.data<int32_t>()[b] = linalg::symmetric_eigen(work.data<T>() + b * n * n, n, values.data<T>() + b * n,
                                                        compute_v ? vectors.data<T>() + b * n * n : nullptr);
  });
  throw_on_info(c, info, "linalg.eigh", [](int32_t) {
    return std::string("The algorithm failed to converge because the input matrix is ill-conditioned or has too "
                       "many repeated eigenvalues (error code: 1).");
  });
  c.push(values);
  c.push(vectors);
}

void linalg_eigh_impl(OpCall& c) { eigh(c, c.tensor(0), c.string_arg(1), c.bool_arg(2)); }
void linalg_eigh_op(OpCall& c) { eigh(c, c.tensor(0), c.string_arg(1), true); }
void eigvalsh_op(OpCall& c) {
  eigh(c, c.tensor(0), c.string_arg(1), false);
  c.outputs.resize(1);
}

struct Svd {
  Tensor u, s, vh;
};

Svd svd(OpCall& c, const Tensor& a, bool full, bool compute_uv) {
  check_matrix_input(c, a, "linalg.svd", false);
  const int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n);
  const Shape batch = batch_shape(a);
  const Tensor input = a.contiguous();
  Svd r{Tensor::empty(a.dtype(), compute_uv ? batched(batch, {m, full ? m : k}) : Shape{0}),
        Tensor::empty(a.dtype(), batched(batch, {k})),
        Tensor::empty(a.dtype(), compute_uv ? batched(batch, {full ? n : k, n}) : Shape{0})};
  const int64_t u_size = m * (full ? m : k), vh_size = (full ? n : k) * n;
  Tensor info = int32_zeros(batch);
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch); ++b)
      info.data<int32_t>()[b] = linalg::jacobi_svd(input.data<T>() + b * m * n, m, n, r.s.data<T>() + b * k,
                                                   compute_uv ? r.u.data<T>() + b * u_size : nullptr,
                                                   compute_uv ? r.vh.data<T>() + b * vh_size : nullptr, full);
  });
  throw_on_info(c, info, "linalg.svd", [](int32_t) {
    return std::string("The algorithm failed to converge because the input matrix is ill-conditioned or has too "
                       "many repeated singular values (error code: 1).");
  });
  return r;
}

void check_driver(const OpCall& c, size_t index) {
  if (c.optional_string(index))
    fail(ErrorCode::BadInput, c.where(), "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA "
                                         "inputs with cuSOLVER backend.");
}

void push_svd(OpCall& c, const Svd& r) {
  c.push(r.u);
  c.push(r.s);
  c.push(r.vh);
}

void linalg_svd_impl(OpCall& c) {
  check_driver(c, 3);
  push_svd(c, svd(c, c.tensor(0), c.bool_arg(1), c.bool_arg(2)));
}

void linalg_svd_op(OpCall& c) {
  check_driver(c, 2);
  push_svd(c, svd(c, c.tensor(0), c.bool_arg(1), true));
}

// svd(self, some, compute_uv) -> (U, S, V): V itself, not V^T; without
// compute_uv, U and V are zero matrices of the full shapes.
void svd_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const bool some = c.bool_arg(1), compute_uv = c.bool_arg(2);
  Svd r = svd(c, a, !some, compute_uv);
  if (compute_uv) {
    r.vh = transposed_copy(r.vh);
  } else {
    const Shape batch = batch_shape(a);
    r.u = Tensor::empty(a.dtype(), batched(batch, {a.size(-2), a.size(-2)}));
    r.vh = Tensor::empty(a.dtype(), batched(batch, {a.size(-1), a.size(-1)}));
  }
  push_svd(c, r);
}

void svdvals_op(OpCall& c) {
  check_driver(c, 1);
  c.push(svd(c, c.tensor(0), false, false).s);
}

}  // namespace

void register_eigen_svd_ops(OpTable& t) {
  t.add("aten::_linalg_eigh(Tensor A, str UPLO=\"L\", bool compute_v=True) -> (Tensor eigenvalues, Tensor "
        "eigenvectors)",
        linalg_eigh_impl);
  t.add("aten::linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)", linalg_eigh_op);
  t.add("aten::linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor", eigvalsh_op);
  t.add("aten::_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) -> (Tensor "
        "U, Tensor S, Tensor Vh)",
        linalg_svd_impl);
  t.add("aten::linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)",
        linalg_svd_op);
  t.add("aten::svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)", svd_op);
  t.add("aten::linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", svdvals_op);
}

}  // namespace pt2web
