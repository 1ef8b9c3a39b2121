// fftshift / ifftshift (a roll by half of each dim, through aten::roll)
// and the sample frequencies fftfreq / rfftfreq.
#include "ops/existing_dim.h"
#include "ops/op_call.h"
#include "ops/op_compose.h"
#include "ops/spectral/spectral.h"
#include "tensor/dispatch.h"

namespace pt2web {

namespace {

// Rolls each dim (all dims when `dim` is None) by size/2 (fftshift) or
// (size+1)/2 (ifftshift).
template <bool Inverse>
void shift_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  std::vector<int64_t> dims;
  if (auto given = c.optional_int_list(1)) {
    dims = *given;
  } else {
    for (int64_t d = 0; d < x.dim(); ++d) dims.push_back(d);
  }
  if (dims.empty()) {
    c.push(x.clone());
    return;
  }
  std::vector<int64_t> shifts;
  for (int64_t& d : dims) {
    d = existing_dim(x, d, c.where());
    const int64_t size = x.sizes()[d];
    shifts.push_back(Inverse ? (size + 1) / 2 : size / 2);
  }
  c.push(run_op1("aten::roll.default", {arg(x), arg(shifts), arg(dims)}));
}

// k / (n * d) for k = 0, 1, ..., then (fftfreq) the negative frequencies;
// like ATen, the scale 1/(n*d) is rounded to the dtype and multiplied there.
template <bool Onesided>
void frequencies_op(OpCall& c) {
  const int64_t n = c.int_arg(0);
  const double d = c.double_arg(1);
  const DType dtype = c.optional_dtype(2).value_or(DType::Float32);
  if (n < 0) fail(ErrorCode::BadInput, c.where(), "n must be non-negative, got ", n);
  if (!is_floating(dtype))
    fail(ErrorCode::BadInput, c.where(), "result type Float can't be cast to the desired output type ",
         dtype_name(dtype));
  const int64_t count = Onesided ? n / 2 + 1 : n;
  Tensor out = Tensor::uninitialized(dtype, {count});
  visit_floating_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const M scale = static_cast<M>(static_cast<T>(1.0 / (static_cast<double>(n) * d)));
    T* o = out.data<T>();
    const int64_t positive = (n - 1) / 2 + 1;
    for (int64_t k = 0; k < count; ++k) {
      int64_t f = (Onesided || k < positive) ? k : k - n;
      o[k] = static_cast<T>(static_cast<M>(static_cast<T>(static_cast<double>(f))) * scale);
    }
  });
  c.push(out);
}

}  // namespace

void register_fft_helper_ops(OpTable& t) {
  t.add("aten::fft_fftshift(Tensor self, int[1]? dim=None) -> Tensor", shift_op<false>);
  t.add("aten::fft_ifftshift(Tensor self, int[1]? dim=None) -> Tensor", shift_op<true>);
  t.add("aten::fft_fftfreq(int n, float d=1., *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor",
        frequencies_op<false>);
  t.add("aten::fft_rfftfreq(int n, float d=1., *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor",
        frequencies_op<true>);
}

}  // namespace pt2web
