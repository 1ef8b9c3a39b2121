// _fft_r2c, _fft_c2r and _fft_c2c: multi-dimensional transforms over a
// complex128 working copy, one axis at a time with kernels/fft.
#include <cmath>
#include <complex>

#include "kernels/fft/fft.h"
#include "ops/complex/complex.h"
#include "ops/existing_dim.h"
#include "ops/op_call.h"
#include "ops/op_utils.h"
#include "ops/spectral/spectral.h"
#include "ops/views.h"

namespace pt2web {

namespace {

int64_t signal_numel(const Shape& sizes, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= sizes[d];
  return n;
}

void apply_norm(Tensor& work, FftNorm norm, int64_t n) {
  if (norm == FftNorm::None || work.numel() == 0) return;
  double scale = norm == FftNorm::ByN ? 1.0 / static_cast<double>(n) : 1.0 / std::sqrt(static_cast<double>(n));
  cdouble* data = work.data<cdouble>();
  for (int64_t i = 0; i < work.numel(); ++i) data[i] *= scale;
}

// A fresh contiguous complex128 copy of x.
Tensor working_copy(const Tensor& x) { return x.to(DType::Complex128, true); }

void transform_dims(Tensor& work, const std::vector<int64_t>& dims, bool forward) {
  if (work.numel() == 0) return;
  for (int64_t d : dims) fft_along_axis(work.data<cdouble>(), work.sizes(), d, !forward);
}

void check_real_input(const Tensor& x) {
  if (x.dtype() == DType::Float16 || x.dtype() == DType::BFloat16)
    fail(ErrorCode::Unsupported, "Unsupported dtype ", dtype_name(x.dtype()), " (pt2web's FFT computes float32 and float64)");
  if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
    fail(ErrorCode::BadInput, "expected a float32 or float64 input for a real-to-complex FFT, got ", dtype_name(x.dtype()));
}

void check_complex_input(const Tensor& x) {
  if (!is_complex(x.dtype()))
    fail(ErrorCode::BadInput, "expected a complex input for this FFT, got ", dtype_name(x.dtype()));
}

}  // namespace

Tensor resize_fft_input(const Tensor& x, const std::vector<int64_t>& dims, const std::vector<int64_t>& sizes) {
  Shape target = x.sizes();
  bool pad = false;
  Tensor source = x;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (sizes[i] == -1) continue;
    if (x.sizes()[dims[i]] < sizes[i]) pad = true;
    if (x.sizes()[dims[i]] > sizes[i]) source = slice_view(source, dims[i], 0, sizes[i], 1);
    target[dims[i]] = sizes[i];
  }
  if (!pad) return source;
  Tensor out = Tensor::empty(x.dtype(), target);
  Tensor region = out;
  for (int64_t d = 0; d < x.dim(); ++d) region = slice_view(region, d, 0, source.sizes()[d], 1);
  region.copy_from(source);
  return out;
}

Tensor fft_c2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool forward) {
  check_complex_input(x);
  Tensor work = working_copy(x);
  transform_dims(work, dims, forward);
  apply_norm(work, norm, signal_numel(x.sizes(), dims));
  return work.to(x.dtype());
}

Tensor fft_r2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool onesided) {
  check_real_input(x);
  Tensor work = working_copy(x);
  transform_dims(work, dims, true);
  apply_norm(work, norm, signal_numel(x.sizes(), dims));
  if (onesided && !dims.empty()) {
    int64_t last = dims.back();
    work = slice_view(work, last, 0, x.sizes()[last] / 2 + 1, 1);
  }
  return work.to(real_to_complex_dtype(x.dtype()));
}

Tensor fft_c2r(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, int64_t last_dim_size) {
  check_complex_input(x);
  PT2WEB_CHECK(!dims.empty(), "fft_c2r without dims");
  Tensor work = working_copy(x);
  std::vector<int64_t> leading(dims.begin(), dims.end() - 1);
  transform_dims(work, leading, false);
  // The full Hermitian spectrum along the last dim: the given half, then
  // the conjugates of its mirror.
  const int64_t last = dims.back(), n = last_dim_size, given = x.sizes()[last];
  Shape full_sizes = x.sizes();
  full_sizes[last] = n;
  Tensor full = Tensor::empty(DType::Complex128, full_sizes);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < last; ++d) outer *= full_sizes[d];
  for (int64_t d = last + 1; d < x.dim(); ++d) inner *= full_sizes[d];
  const cdouble* in = work.data<cdouble>();
  cdouble* out = full.data<cdouble>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const cdouble* src = in + o * given * inner + i;
      cdouble* dst = out + o * n * inner + i;
      for (int64_t k = 0; k <= n / 2 && k < given; ++k) dst[k * inner] = src[k * inner];
      for (int64_t k = n / 2 + 1; k < n; ++k) dst[k * inner] = std::conj(dst[(n - k) * inner]);
    }
  }
  transform_dims(full, {last}, false);
  apply_norm(full, norm, signal_numel(full_sizes, dims));
  return full.to(complex_to_real_dtype(x.dtype()));
}

namespace {

// Each dim wrapped, order kept (the last one is the halved dim of r2c/c2r).
std::vector<int64_t> wrap_each(std::vector<int64_t> dims, const Tensor& x) {
  for (int64_t& d : dims) d = existing_dim(x, d, "");
  return dims;
}

FftNorm norm_arg(const OpCall& c, size_t index) {
  int64_t mode = c.int_arg(index);
  if (mode < 0 || mode > 2) fail(ErrorCode::BadInput, c.where(), "Unknown normalization mode ", mode);
  return static_cast<FftNorm>(mode);
}

void r2c_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  c.push(fft_r2c(x, wrap_each(c.int_list(1), x), norm_arg(c, 2), c.bool_arg(3)));
}

void c2r_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  std::vector<int64_t> dims = wrap_each(c.int_list(1), x);
  int64_t last_dim_size = c.int_arg(3);
  if (dims.empty()) fail(ErrorCode::BadInput, c.where(), "expected at least one dim to transform");
  if (last_dim_size < 1) fail(ErrorCode::BadInput, c.where(), "Invalid number of data points (", last_dim_size, ") specified");
  c.push(fft_c2r(x, dims, norm_arg(c, 2), last_dim_size));
}

void c2c_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  c.push(fft_c2c(x, wrap_each(c.int_list(1), x), norm_arg(c, 2), c.bool_arg(3)));
}

}  // namespace

void register_fft_primitive_ops(OpTable& t) {
  t.add("aten::_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor", r2c_op);
  t.add("aten::_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor", c2r_op);
  t.add("aten::_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor", c2c_op);
}

}  // namespace pt2web
