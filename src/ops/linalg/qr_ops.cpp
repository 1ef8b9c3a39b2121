// QR operators on kernels/linalg/householder (geqrf's reflectors, dlarfg's
// sign convention): geqrf, linalg_householder_product, ormqr, linalg_qr and qr.
#include <algorithm>

#include "kernels/linalg/householder.h"
#include "ops/linalg/linalg.h"
#include "ops/linalg/matrix_batch.h"
#include "ops/op_compose.h"
#include "ops/views.h"

namespace pt2web {

namespace {

struct Reflectors {
  Tensor a, tau;  // geqrf's outputs, contiguous
};

Reflectors geqrf_batched(const Tensor& input) {
  const int64_t m = input.size(-2), n = input.size(-1), k = std::min(m, n);
  const Shape batch = batch_shape(input);
  Reflectors r{input.clone(), Tensor::empty(input.dtype(), batched(batch, {k}))};
  dispatch_linalg(input.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch); ++b)
      linalg::geqrf(r.a.data<T>() + b * m * n, m, n, r.tau.data<T>() + b * k);
  });
  return r;
}

// The first `cols` columns of H_0 ... H_{k-1} for reflectors stored in the
// m x n matrices of `a` (only their first min(n, cols) columns are read).
Tensor householder_product_batched(const Tensor& a, const Tensor& tau, int64_t cols) {
  const int64_t m = a.size(-2), n = a.size(-1), k = tau.size(-1);
  const Shape batch = batch_shape(a);
  Tensor v = Tensor::empty(a.dtype(), batched(batch, {m, cols}));
  const int64_t copied = std::min(n, cols);
  slice_view(v, -1, 0, copied, 1).copy_from(slice_view(a, -1, 0, copied, 1));
  Tensor q = Tensor::empty(a.dtype(), batched(batch, {m, cols}));
  const Tensor taus = tau.contiguous();
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch); ++b)
      linalg::householder_product(v.data<T>() + b * m * cols, m, cols, taus.data<T>() + b * k, k,
                                  q.data<T>() + b * m * cols);
  });
  return q;
}

void geqrf_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  check_matrix_input(c, a, "torch.geqrf", false);
  const Reflectors r = geqrf_batched(a);
  c.push(r.a);
  c.push(r.tau);
}

void check_reflector_operands(const OpCall& c, const Tensor& a, const Tensor& tau, const char* op) {
  check_matrix_input(c, a, op, false);
  if (tau.dim() != a.dim() - 1)
    fail(ErrorCode::BadInput, c.where(), op, ": input.dim() must be greater than or equal to tau.dim() + 1 and "
         "tau.dim() must equal input.dim() - 1, got ", a.dim(), " and ", tau.dim());
  if (tau.dtype() != a.dtype())
    fail(ErrorCode::BadInput, c.where(), op, ": tau dtype ", dtype_name(tau.dtype()),
         " does not match input dtype ", dtype_name(a.dtype()));
  if (Shape(tau.sizes().begin(), tau.sizes().end() - 1) != batch_shape(a))
    fail(ErrorCode::BadInput, c.where(), op, ": Expected batch dimensions of tau to be equal to input's, got ",
         shape_to_string(tau.sizes()), " for input of shape ", shape_to_string(a.sizes()));
}

void householder_product_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& tau = c.tensor(1);
  check_reflector_operands(c, a, tau, "torch.linalg.householder_product");
  if (a.size(-2) < a.size(-1))
    fail(ErrorCode::BadInput, c.where(), "torch.linalg.householder_product: input.shape[-2] must be greater than or "
                                         "equal to input.shape[-1]");
  if (a.size(-1) < tau.size(-1))
    fail(ErrorCode::BadInput, c.where(), "torch.linalg.householder_product: input.shape[-1] must be greater than or "
                                         "equal to tau.shape[-1]");
  c.push(householder_product_batched(a, tau, a.size(-1)));
}

// ormqr(A, tau, C, left, transpose): Q C, Q^T C, C Q or C Q^T for
// Q = H_0 ... H_{k-1} with the reflectors in A's columns.
void ormqr_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& tau = c.tensor(1);
  const Tensor& other = c.tensor(2);
  const bool left = c.bool_arg(3), transpose = c.bool_arg(4);
  check_reflector_operands(c, a, tau, "torch.ormqr");
  if (other.dim() != a.dim() || other.dtype() != a.dtype())
    fail(ErrorCode::BadInput, c.where(), "torch.ormqr: input and other must have the same dims and dtype");
  const int64_t order = left ? other.size(-2) : other.size(-1), k = tau.size(-1);
  if (a.size(-2) != order)
    fail(ErrorCode::BadInput, c.where(), "torch.ormqr: Expected input.size(-2) to be equal to other.size(", left ? -2 : -1,
         "), but got ", a.size(-2), " and ", order);
  if (k > order || a.size(-1) < k)
    fail(ErrorCode::BadInput, c.where(), "torch.ormqr: tau.shape[-1] must be at most input.shape[-1] and other.shape[",
         left ? -2 : -1, "]");
  const Tensor v = a.contiguous(), taus = tau.contiguous();
  Tensor out = expand_view(other, batched(batch_shape(a), {other.size(-2), other.size(-1)})).clone();
  const int64_t rows = out.size(-2), cols = out.size(-1), stride = a.size(-1);
  // Q^T C and C Q apply H_0 first; Q C and C Q^T apply H_{k-1} first.
  const bool forward = left == transpose;
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch_shape(a)); ++b) {
      const T* vb = v.data<T>() + b * order * stride;
      const T* tb = taus.data<T>() + b * k;
      T* ob = out.data<T>() + b * rows * cols;
      for (int64_t step = 0; step < k; ++step) {
        const int64_t j = forward ? step : k - 1 - step;
        if (left)
          linalg::apply_reflector_left(vb, stride, j, tb[j], ob, rows, cols);
        else
          linalg::apply_reflector_right(vb, stride, j, tb[j], ob, rows, cols);
      }
    }
  });
  c.push(out);
}

// Q and R for mode "reduced" (m x k, k x n), "complete" (m x m, m x n) or "r"
// (Q empty, R k x n).
void qr(OpCall& c, const Tensor& a, const std::string& mode) {
  if (mode != "reduced" && mode != "complete" && mode != "r")
    fail(ErrorCode::BadInput, c.where(), "qr received unrecognized mode '", mode,
         "' but expected one of 'reduced' (default), 'r', or 'complete'");
  check_matrix_input(c, a, "linalg.qr", false);
  const int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n);
  const Reflectors r = geqrf_batched(a);
  const int64_t r_rows = mode == "complete" ? m : k;
  Tensor upper = Tensor::empty(a.dtype(), batched(batch_shape(a), {r_rows, n}));
  dispatch_linalg(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (int64_t b = 0; b < shape_numel(batch_shape(a)); ++b)
      for (int64_t i = 0; i < std::min(r_rows, m); ++i)
        for (int64_t j = i; j < n; ++j) upper.data<T>()[(b * r_rows + i) * n + j] = r.a.data<T>()[(b * m + i) * n + j];
  });
  Tensor q = mode == "r" ? Tensor::empty(a.dtype(), {0})
                         : householder_product_batched(r.a, r.tau, mode == "complete" ? m : k);
  c.push(q);
  c.push(upper);
}

void linalg_qr_op(OpCall& c) { qr(c, c.tensor(0), c.string_arg(1)); }

void qr_op(OpCall& c) { qr(c, c.tensor(0), c.bool_arg(1) ? "reduced" : "complete"); }

}  // namespace

void register_qr_ops(OpTable& t) {
  t.add("aten::geqrf(Tensor self) -> (Tensor a, Tensor tau)", geqrf_op);
  t.add("aten::linalg_householder_product(Tensor input, Tensor tau) -> Tensor", householder_product_op);
  t.add("aten::ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor",
        ormqr_op);
  t.add("aten::linalg_qr(Tensor A, str mode=\"reduced\") -> (Tensor Q, Tensor R)", linalg_qr_op);
  t.add("aten::qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)", qr_op);
}

}  // namespace pt2web
